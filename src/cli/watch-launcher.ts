import { readFileSync } from 'node:fs';

/** One process as /proc shows it. */
export interface ProcessInfo {
  ppid: number;
  /** One-letter state (`Z`: a zombie, dead but not yet reaped). */
  state: string;
  /** Start time in clock ticks since boot: tells a pid apart from a later process that reuses it. */
  startTicks: number;
  /** The command line, arguments joined by spaces (npm rewrites its own to `npm exec …`). */
  command: string;
}

export interface WatchLauncherOptions {
  /** Called once, with a sentence naming the process that went away. */
  onGone: (reason: string) => void;
  /** How often the launcher is checked. Default 1000 ms. */
  intervalMs?: number;
  /** Environment of this process (npm sets `npm_execpath` in what it runs). Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Our current parent pid. Default `process.ppid` (read anew on each call). */
  readPpid?: () => number;
  /** A process's /proc entry, or null where it does not exist or /proc cannot be read. */
  readProcess?: (pid: number) => ProcessInfo | null;
}

export interface LauncherWatch {
  /** The processes watched, nearest first; empty when nothing could be (started by init, or orphaned already). */
  readonly watched: readonly { pid: number; command: string }[];
  stop(): void;
}

/** npm's own process: it sets its title to `npm <command> …`; some systems show the script path instead. */
const NPM_COMMAND = /^npm(\s|$)|[\\/]npm-cli\.js(\s|$)/;
/** npm runs a bin through `sh -c`, so npm is the grandparent; a wrapper or two more is tolerated. */
const MAX_NPM_DEPTH = 4;

/**
 * Watches the process that started this one and calls `onGone` when it goes away: our parent pid
 * changes (we were reparented to init or a subreaper), or, when npm started us (`npx`, `npm exec`,
 * `npm run`), the npm process itself exits. npm answers SIGTERM by passing it to its `sh -c`, which
 * dies without passing it on, and a SIGKILLed npm passes nothing, so without this watch a server
 * started through npm outlives every signal its supervisor sends.
 */
export function watchLauncher(options: WatchLauncherOptions): LauncherWatch {
  const readPpid = options.readPpid ?? (() => process.ppid);
  const readProcess = options.readProcess ?? readProcFs;
  const env = options.env ?? process.env;
  const parent = readPpid();
  // Started by init, or already orphaned: there is no launcher left to outlive.
  if (parent <= 1) return { watched: [], stop: () => {} };

  const chain: { pid: number; info: ProcessInfo | null }[] = [{ pid: parent, info: readProcess(parent) }];
  if (env['npm_execpath']) {
    const ancestors: { pid: number; info: ProcessInfo }[] = [];
    let info = chain[0]!.info;
    let found = info !== null && NPM_COMMAND.test(info.command);
    while (!found && info && info.ppid > 1 && ancestors.length < MAX_NPM_DEPTH) {
      const pid = info.ppid;
      info = readProcess(pid);
      if (!info) break;
      ancestors.push({ pid, info });
      found = NPM_COMMAND.test(info.command);
    }
    // Only when npm is found: an unrelated shell further up is not ours to follow.
    if (found) chain.push(...ancestors);
  }

  let stopped = false;
  const gone = (pid: number, info: ProcessInfo | null): void => {
    stop();
    const what = info?.command ? ` (${info.command.length > 80 ? `${info.command.slice(0, 77)}...` : info.command})` : '';
    options.onGone(`the process that started this server, pid ${pid}${what}, has exited`);
  };
  const check = (): void => {
    if (stopped) return;
    if (readPpid() !== parent) return gone(parent, chain[0]!.info);
    for (const { pid, info } of chain.slice(1)) {
      const now = readProcess(pid);
      if (!now || now.state === 'Z' || now.startTicks !== info!.startTicks) return gone(pid, info);
    }
  };
  const timer = setInterval(check, options.intervalMs ?? 1000);
  // The watch alone never keeps the process alive.
  timer.unref();
  function stop(): void {
    stopped = true;
    clearInterval(timer);
  }
  return { watched: chain.map(({ pid, info }) => ({ pid, command: info?.command ?? '' })), stop };
}

/** Linux's /proc/<pid>/stat and cmdline; null elsewhere or when the process is gone. */
export function readProcFs(pid: number): ProcessInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may itself hold spaces and parentheses: split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    let command = '';
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ').trim();
    } catch {
      // A zombie has no command line; the stat line is enough.
    }
    return { state: fields[0] ?? '', ppid: Number(fields[1]), startTicks: Number(fields[19]), command };
  } catch {
    return null;
  }
}
