// The table of scripts/eval-java-libraries.sh, with the Java plugin's own units (scripts/lib/eval-summary.mts).
// Usage: node --import tsx eval-java-summary.mts <runs.jsonl> <out> <root>
import { join } from 'node:path';
import { summarizeEval } from './eval-summary.mts';

const [runsFile, outDir, rootDir] = process.argv.slice(2) as [string, string, string];
const { parseJavaUnits } = await import(join(rootDir, 'src/languages/java/parse-java-units.ts'));
console.log(await summarizeEval(runsFile, outDir, parseJavaUnits));
