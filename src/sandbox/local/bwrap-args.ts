import { lstatSync, readdirSync, readlinkSync, type Stats } from 'node:fs';
import { posix } from 'node:path';

/** Where the local adapter binds the host folders and scripts inside the sandbox. */
export interface BwrapLayout {
  /** Host folder bound read-write at `workdir`. */
  hostWorkspace: string;
  /** Host folder bound read-write at /var/lib/codemidas. */
  hostVarLib: string;
  /** Host path of relay.py, bound read-only at /opt/codemidas/relay.py. */
  hostRelay: string;
  /** Host folder of the scoring scripts, bound read-only at /opt/codemidas/scoring. */
  hostScoring: string;
  workdir: string;
  role: 'episode' | 'scoring';
  /**
   * Host folders covered by an empty tmpfs inside the sandbox (the project checkout, with its task
   * suites' hidden tests and solutions, must not be readable by agent code).
   */
  hiddenHostPaths?: string[];
  /**
   * Paths of the host's filesystem the sandbox must not contain (`SandboxSpec.scrub`): a folder is
   * covered by an empty tmpfs, a file by `hostEmptyFile`; a path the host lacks needs nothing.
   */
  scrub?: readonly string[];
  /** An empty regular host file, bound over scrubbed files (/dev/null would read as "permission denied"). */
  hostEmptyFile?: string;
}

export const LOCAL_VAR_LIB = '/var/lib/codemidas';
const SPECIAL_TOP = new Set(['/proc', '/dev', '/tmp']);

/**
 * bwrap arguments (without the command). The host root is mirrored read-only entry by entry
 * rather than with `--ro-bind / /`, because bwrap cannot create mount points (/workspace,
 * /opt/codemidas, ...) inside a read-only bind: folders on the way to a mount point that the host
 * lacks become empty folders on bwrap's own root, with their host contents bound back in.
 */
export function bwrapArgs(layout: BwrapLayout, listDir: (dir: string) => string[] = defaultListDir): string[] {
  const workdir = posix.normalize(layout.workdir);
  const mounts = [workdir, LOCAL_VAR_LIB, '/opt/codemidas/relay.py', '/opt/codemidas/scoring'];
  const args: string[] = ['--unshare-all', '--die-with-parent', '--new-session'];
  mirror('/', mounts, args, listDir);
  args.push(
    '--bind', layout.hostWorkspace, workdir,
    '--bind', layout.hostVarLib, LOCAL_VAR_LIB,
    '--ro-bind', layout.hostRelay, '/opt/codemidas/relay.py',
    '--ro-bind', layout.hostScoring, '/opt/codemidas/scoring',
    '--tmpfs', '/tmp',
    '--proc', '/proc',
    '--dev', '/dev',
  );
  for (const hidden of layout.hiddenHostPaths ?? []) args.push('--tmpfs', hidden);
  for (const path of layout.scrub ?? []) {
    const stat = lstatOrNull(path);
    if (stat?.isDirectory()) args.push('--tmpfs', path);
    else if (stat) {
      if (!layout.hostEmptyFile) throw new Error(`scrubbing the file ${path} needs hostEmptyFile`);
      args.push('--ro-bind', layout.hostEmptyFile, path);
    }
  }
  if (layout.role === 'episode') args.push('--unshare-user', '--uid', '1000', '--gid', '1000', '--cap-drop', 'ALL');
  args.push('--chdir', workdir, '--setenv', 'CODEMIDAS_WORKDIR', workdir, '--setenv', 'HOME', workdir);
  return args;
}

function mirror(dir: string, mounts: string[], args: string[], listDir: (dir: string) => string[]): void {
  for (const name of listDir(dir)) {
    const path = posix.join(dir, name);
    if (mounts.includes(path) || (dir === '/' && SPECIAL_TOP.has(path))) continue;
    const below = mounts.some((mount) => mount.startsWith(`${path}/`));
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) {
      args.push('--symlink', readlinkSync(path), path);
    } else if (below && stat.isDirectory()) {
      args.push('--dir', path);
      mirror(path, mounts, args, listDir);
    } else {
      args.push('--ro-bind-try', path, path);
    }
  }
  // Mount points whose parent exists here but which the host lacks are created by bwrap itself.
}

function defaultListDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}
