import { CliError } from './cli-error.js';

/** A commander parser for a flag that takes a positive integer; names the flag when the value is not one. */
export function positiveInt(flag: string): (raw: string) => number {
  return (raw) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n <= 0) throw new CliError(`${flag} must be a positive integer, got "${raw}"`);
    return n;
  };
}

/** A commander parser for a flag that takes 0 or a positive integer. */
export function nonNegativeInt(flag: string): (raw: string) => number {
  return (raw) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new CliError(`${flag} must be 0 or a positive integer, got "${raw}"`);
    return n;
  };
}
