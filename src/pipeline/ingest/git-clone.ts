import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Environment for git: never prompt for credentials, so a private URL fails instead of hanging. */
const GIT_ENV = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true', SSH_ASKPASS: 'true', GIT_SSH_COMMAND: 'ssh -o BatchMode=yes' };

/** Runs git with `args` and returns stdout; rejects with an Error whose message holds git's stderr. */
export async function git(args: string[], options: { cwd?: string; signal?: AbortSignal } = {}): Promise<string> {
  const { stdout } = await run('git', args, {
    env: GIT_ENV,
    maxBuffer: 16 * 1024 * 1024,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return stdout;
}

/** `git clone --depth 1 <url> <into>`, then the commit id of HEAD. */
export async function shallowClone(url: string, into: string, signal?: AbortSignal): Promise<string> {
  const options = signal === undefined ? {} : { signal };
  await git(['clone', '--quiet', '--depth', '1', '--', url, into], options);
  return (await git(['rev-parse', 'HEAD'], { ...options, cwd: into })).trim();
}

/** The last non-empty line of a failed command's stderr, for error messages. */
export function lastErrorLine(error: unknown): string {
  const stderr = typeof error === 'object' && error !== null && 'stderr' in error ? String((error as { stderr: unknown }).stderr) : '';
  const lines = (stderr || (error instanceof Error ? error.message : String(error))).split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.at(-1) ?? 'unknown error';
}
