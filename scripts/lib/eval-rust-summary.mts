// The table of scripts/eval-rust-libraries.sh, with the Rust plugin's own units (scripts/lib/eval-summary.mts).
// Usage: node --import tsx eval-rust-summary.mts <runs.jsonl> <out> <root>
import { join } from 'node:path';
import { summarizeEval } from './eval-summary.mts';

const [runsFile, outDir, rootDir] = process.argv.slice(2) as [string, string, string];
const { parseRustUnits } = await import(join(rootDir, 'src/languages/rust/parse-rust-units.ts'));
console.log(await summarizeEval(runsFile, outDir, parseRustUnits));
