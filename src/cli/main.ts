import { reportCliError } from './cli-error.js';
import { createProgram } from './create-program.js';

/** Entry point of `bin/codemidas.js`: runs the command line and turns failures into exit codes. */
export async function main(argv: readonly string[] = process.argv): Promise<number> {
  const program = createProgram();
  try {
    await program.parseAsync([...argv]);
    return 0;
  } catch (err) {
    const verbose = argv.includes('--verbose');
    return reportCliError(err, { verbose, write: (text) => void process.stderr.write(text) });
  }
}

const code = await main();
// Let pending writes (stdout, the logger) drain; `serve` returns only after shutdown.
process.exitCode = code;
if (code !== 0) setTimeout(() => process.exit(code), 100).unref();
