// Evaluates literal argument texts (JSDoc examples, call sites, defaults) for record-driver.mjs, in
// a process of its own: a text is JavaScript, and one that exits or loops must not take the driver
// down.
//
//   node evaluate.mjs < {"texts": ["1, 2", "'a'", ...]}
//
// Prints ONE JSON document: {"values": [[TAGGED...] | null, ...]} in text order.
import { readStdin } from './io.mjs';
import { evaluateHere } from './inputs.mjs';

const writeOut = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr);

const { texts } = JSON.parse(await readStdin());
const values = (texts ?? []).map((text) => evaluateHere(String(text)));
writeOut(`${JSON.stringify({ values })}\n`, () => process.exit(0));
