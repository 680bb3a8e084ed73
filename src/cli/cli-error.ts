import { CodeMidasError } from '../errors.js';

/** A failure the CLI explains itself: what went wrong and what to do. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly hint: string = '',
    readonly exitCode: number = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/**
 * The text printed for a failure: the message (project errors already say what to do), a hint, and
 * the stack only with --verbose. Returns the exit code to use.
 */
export function reportCliError(err: unknown, options: { verbose: boolean; write: (text: string) => void }): number {
  const { verbose, write } = options;
  if (err instanceof CliError) {
    write(`codemidas: ${err.message}\n`);
    if (err.hint) write(`  ${err.hint}\n`);
    if (verbose && err.stack) write(`${err.stack}\n`);
    return err.exitCode;
  }
  if (err instanceof CodeMidasError) {
    write(`codemidas: ${err.message}\n`);
    if (verbose) write(`${err.stack ?? ''}\n${causeChain(err)}`);
    return err.code === 'INVALID_ARGUMENT' ? 2 : 1;
  }
  const message = err instanceof Error ? err.message : String(err);
  write(`codemidas: unexpected error: ${message}\n`);
  write(verbose ? `${err instanceof Error ? err.stack : ''}\n${causeChain(err)}` : '  run again with --verbose for the stack trace, and report it if it persists\n');
  return 1;
}

function causeChain(err: unknown): string {
  let text = '';
  let cause = err instanceof Error ? err.cause : undefined;
  while (cause) {
    text += `caused by: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}\n`;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return text;
}
