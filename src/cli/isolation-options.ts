import { Option, type Command } from 'commander';
import { DEFAULT_MAX_DISK_BYTES, type DockerIsolationWanted } from '../sandbox/docker/docker-isolation.js';
import { CliError } from './cli-error.js';

export { DEFAULT_MAX_DISK_BYTES };

/** The runtimes `--runtime` offers. */
export const RUNTIMES = ['runc', 'runsc'] as const;

export interface IsolationFlags {
  runtime: (typeof RUNTIMES)[number];
  /** Undefined when the flag was not given: then the default cap, where the engine can enforce it. */
  maxDiskBytes?: number | undefined;
}

/**
 * Adds `--runtime` (runc, or runsc for gVisor) and `--max-disk-bytes` to a command that starts
 * sandboxes. Both apply to episode and scoring sandboxes alike.
 */
export function addIsolationOptions(command: Command): Command {
  return command
    .addOption(new Option('--runtime <name>', 'OCI runtime of every sandbox (docker): runc, or runsc for gVisor').choices(RUNTIMES).default('runc'))
    .option(
      '--max-disk-bytes <n>',
      `cap on what one sandbox writes to disk, past which its writes fail; K, M, G suffixes (1024-based) allowed; 0: no cap. Given, it must be enforceable (a loop filesystem per sandbox when run as root on the engine's host, or an engine with quotas: scripts/setup-quota-engine.sh) or the command stops; not given, ${DEFAULT_MAX_DISK_BYTES} (2G) where enforceable, else no cap, said at start`,
      parseByteSize('--max-disk-bytes'),
    );
}

/**
 * What the flags ask of the engine: a cap given is refused, not dropped, where the engine cannot
 * enforce it; the default cap is kept where it can be, and said to be off where it cannot.
 */
export function isolationFromFlags(flags: IsolationFlags): DockerIsolationWanted {
  if (flags.maxDiskBytes === undefined) return { runtime: flags.runtime, diskBytes: DEFAULT_MAX_DISK_BYTES, ifNoDiskQuota: 'warn' };
  return { runtime: flags.runtime, diskBytes: flags.maxDiskBytes, ifNoDiskQuota: 'refuse' };
}

/** A commander parser for a byte count: `2147483648`, `2G`, `64M`, `512K`, `0`. */
export function parseByteSize(flag: string): (raw: string) => number {
  return (raw) => {
    const match = /^(\d+)([KMG]i?B?)?$/i.exec(raw.trim().replace(/_/g, ''));
    const unit = match?.[2]?.[0]?.toUpperCase();
    const scale = unit === 'K' ? 1024 : unit === 'M' ? 1024 ** 2 : unit === 'G' ? 1024 ** 3 : 1;
    const n = match ? Number(match[1]) * scale : Number.NaN;
    if (!Number.isSafeInteger(n)) throw new CliError(`${flag} takes a byte count such as 2147483648, 2G or 64M (0: no cap), not '${raw}'`, undefined, 2);
    return n;
  };
}
