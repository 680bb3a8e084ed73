import { createInterface } from 'node:readline';
import { Command, Option } from 'commander';
import { resolveLimits } from '../config/limits.js';
import type { EpisodeManager } from '../episodes/episode-manager.js';
import type { Action, StepResult } from '../episodes/types.js';
import { CodeMidasError } from '../errors.js';
import { createLogger } from '../logging.js';
import { CliError } from './cli-error.js';
import { composeRuntime, type SandboxKind } from './compose-runtime.js';
import { addIsolationOptions, isolationFromFlags, type IsolationFlags } from './isolation-options.js';
import { addLimitOptions, limitsFromOptions } from './limit-options.js';

interface EpisodeOptions extends IsolationFlags {
  environments: string;
  sandbox: SandboxKind;
  [limit: string]: unknown;
}

const HELP = `commands:
  <text>            run it as a shell command in the workspace
  :read <path>      read a file
  :write <path>     write a file: type its content, end with a line holding a single "."
  :edit <path>      replace text: type the old text, ".", the new text, "."
  :submit           submit the workspace
  :reward           score it and print reward, passed/total and each test
  :help             this list
  :quit             close the episode and exit`;

/** `codemidas episode <task-id>`: one episode by hand, in-process (no gRPC). Works with piped input. */
export function createEpisodeCommand(): Command {
  const command = new Command('episode')
    .description('debug one episode by hand: shell commands and :commands on stdin (scriptable)')
    .argument('<task-id>', 'task id, <suite>/<name>')
    .option('--environments <dir>', 'folder of suites', 'environments')
    .addOption(new Option('--sandbox <kind>', 'sandbox adapter').choices(['auto', 'docker', 'local', 'memory']).default('auto'));
  addLimitOptions(command);
  addIsolationOptions(command);
  command.action(async (taskId: string, options: EpisodeOptions, cmd: Command) => {
    const verbose = Boolean(cmd.optsWithGlobals()['verbose']);
    await runEpisode(taskId, options, verbose);
  });
  return command;
}

async function runEpisode(taskId: string, options: EpisodeOptions, verbose: boolean): Promise<void> {
  const limits = resolveLimits(limitsFromOptions(options));
  const logger = createLogger({ level: verbose ? 'debug' : 'warn' });
  const out = (text: string): void => void process.stdout.write(text);
  const say = (line: string): void => void process.stderr.write(`${line}\n`);
  const runtime = await composeRuntime({ environmentsDir: options.environments, sandbox: options.sandbox, isolation: isolationFromFlags(options), limits, logger, say, onlyTaskIds: [taskId] });
  try {
    if (!runtime.catalog.get(taskId)) {
      const known = [...runtime.catalog.tasks.keys()].slice(0, 10).join(', ');
      throw new CliError(`unknown task '${taskId}'`, `loaded tasks: ${known}`, 2);
    }
    const reset = await runtime.manager.reset(taskId);
    out(`# episode ${reset.episodeId} (${taskId}), workspace ${reset.workdir}\n\n${reset.prompt}\n\n`);
    out(`type :help for commands\n`);
    await interact(runtime.manager, reset.episodeId, out);
  } finally {
    await runtime.dispose(1_000);
  }
}

async function interact(manager: EpisodeManager, episodeId: string, out: (text: string) => void): Promise<void> {
  const rl = createInterface({ input: process.stdin, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  const nextLine = async (): Promise<string | null> => {
    const next = await lines.next();
    return next.done ? null : next.value;
  };
  /** Lines until one holding a single "." (or end of input). */
  const readBlock = async (what: string): Promise<string> => {
    out(`(${what}; end with a line holding a single ".")\n`);
    const collected: string[] = [];
    for (let line = await nextLine(); line !== null && line !== '.'; line = await nextLine()) collected.push(line);
    return collected.length ? `${collected.join('\n')}\n` : '';
  };
  let index = 0;
  const step = async (action: Action): Promise<StepResult> => {
    const result = await manager.step(episodeId, index, action);
    index++;
    return result;
  };
  try {
    for (;;) {
      out(`[${index}]$ `);
      const line = await nextLine();
      if (line === null) {
        out('\n');
        break;
      }
      const text = line.trim();
      if (!text) continue;
      try {
        if (!text.startsWith(':')) {
          printStep(await step({ kind: 'shell', command: line, timeoutMs: 0 }), out);
          continue;
        }
        const [name = '', ...rest] = text.split(/\s+/);
        const arg = rest.join(' ');
        switch (name) {
          case ':help':
            out(`${HELP}\n`);
            break;
          case ':quit':
          case ':q':
            return;
          case ':read':
            if (!arg) throw new CliError('usage: :read <path>');
            printStep(await step({ kind: 'read_file', path: arg, offset: 0, limit: 0 }), out);
            break;
          case ':write': {
            if (!arg) throw new CliError('usage: :write <path>');
            const content = await readBlock(`content of ${arg}`);
            printStep(await step({ kind: 'write_file', path: arg, content }), out);
            break;
          }
          case ':edit': {
            if (!arg) throw new CliError('usage: :edit <path>');
            const oldText = (await readBlock('old text')).replace(/\n$/, '');
            const newText = (await readBlock('new text')).replace(/\n$/, '');
            printStep(await step({ kind: 'edit', path: arg, oldText, newText }), out);
            break;
          }
          case ':submit':
            printStep(await step({ kind: 'submit' }), out);
            break;
          case ':reward': {
            out('scoring...\n');
            const r = await manager.reward(episodeId);
            out(`reward ${r.reward} (${r.outcome}), passed ${r.passed}/${r.total}${r.detail ? ` — ${r.detail}` : ''}\n`);
            for (const t of r.tests) out(`  ${t.status.padEnd(7)} ${t.name}${t.message ? `: ${t.message.split('\n')[0]}` : ''}\n`);
            break;
          }
          default:
            out(`unknown command ${name}; :help lists them\n`);
        }
      } catch (err) {
        // Refused actions (closed, budget spent) are reported, and the loop goes on.
        if (err instanceof CodeMidasError || err instanceof CliError) {
          out(`error: ${err.message}\n`);
        } else {
          throw err;
        }
      }
    }
  } finally {
    rl.close();
    const closed = await manager.close({ episodeId }).catch(() => 0);
    if (closed) out(`episode ${episodeId} closed\n`);
  }
}

function printStep(result: StepResult, out: (text: string) => void): void {
  const o = result.observation;
  if (o.stdout) out(o.stdout.endsWith('\n') ? o.stdout : `${o.stdout}\n`);
  if (o.stderr) out(o.stderr.endsWith('\n') ? o.stderr : `${o.stderr}\n`);
  const notes = [
    `exit ${o.exitCode}`,
    `${o.durationMs} ms`,
    o.timedOut ? 'timed out' : '',
    o.truncated ? 'output truncated' : '',
    result.terminated ? 'episode over: :reward scores it' : '',
    result.truncated ? 'budget spent' : '',
  ].filter(Boolean);
  out(`(${notes.join(', ')})\n`);
}
