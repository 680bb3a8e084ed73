// The table of scripts/eval-go-libraries.sh, with the Go plugin's own units (scripts/lib/eval-summary.mts).
// Usage: node --import tsx eval-go-summary.mts <runs.jsonl> <out> <root>
import { join } from 'node:path';
import { summarizeEval } from './eval-summary.mts';

const [runsFile, outDir, rootDir] = process.argv.slice(2) as [string, string, string];
const { parseGoUnits } = await import(join(rootDir, 'src/languages/go/parse-go-units.ts'));
console.log(await summarizeEval(runsFile, outDir, parseGoUnits));
