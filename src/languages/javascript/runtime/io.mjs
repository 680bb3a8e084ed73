// Small process helpers shared by the record harness and the judge.
import { Buffer } from 'node:buffer';

/** All of stdin as UTF-8 text. */
export function readStdin() {
  return new Promise((resolve, reject) => {
    const chunks = [];
    process.stdin.on('data', (c) => chunks.push(c));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}
