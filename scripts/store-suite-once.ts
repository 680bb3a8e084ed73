/**
 * Rewrites a suite stored with whole `workspace/` folders into the layout `codemidas build` writes:
 * the suite's base (`_base/`) and, per task, `overlay/` and `overlay.json` (docs/task-format.md,
 * "Stored once"). Every task keeps the same composed workspace.
 *
 *   npx tsx scripts/store-suite-once.ts environments/<suite>
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { storeSuiteOnce } from '../src/pipeline/package/store-suite-once.js';
import { suiteFileSchema } from '../src/tasks/task-schema.js';

const suiteDir = process.argv[2];
if (!suiteDir) {
  process.stderr.write('usage: npx tsx scripts/store-suite-once.ts <suite folder>\n');
  process.exit(2);
}
const suite = suiteFileSchema.parse(JSON.parse(await readFile(path.join(suiteDir, 'suite.json'), 'utf8')));
const { baseFiles, overlayFiles } = await storeSuiteOnce(suiteDir, [...suite.tasks, ...suite.retired]);
process.stdout.write(`${suiteDir}: ${baseFiles} files in the base, ${overlayFiles} in ${suite.tasks.length + suite.retired.length} overlays\n`);
