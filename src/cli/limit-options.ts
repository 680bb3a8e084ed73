import type { Command } from 'commander';
import { LIMIT_FLAGS, type LimitsInput, parseLimitFlagValue, DEFAULT_LIMITS } from '../config/limits.js';

/** Adds one option per limit (`--max-steps`, `--command-timeout-ms`, ...) with its default shown. */
export function addLimitOptions(command: Command): Command {
  for (const flag of LIMIT_FLAGS) {
    const name = flag.flag.split(' ')[0] ?? flag.key;
    command.option(flag.flag, `${flag.description} (default ${DEFAULT_LIMITS[flag.key]})`, (raw: string) => parseLimitFlagValue(name, raw));
  }
  return command;
}

/** Reads the limit options back as user input for `resolveLimits` (unset ones left out). */
export function limitsFromOptions(options: Record<string, unknown>): LimitsInput {
  const input: LimitsInput = {};
  for (const flag of LIMIT_FLAGS) {
    const optionKey = camelCase((flag.flag.split(' ')[0] ?? '').replace(/^--/, ''));
    const value = options[optionKey];
    if (typeof value === 'number') input[flag.key] = value;
  }
  return input;
}

function camelCase(kebab: string): string {
  return kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}
