import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJavaScriptParser, grammarOf, loadJavaScriptGrammars } from '../../src/languages/javascript/javascript-grammars.js';
import { MASKED_BODY, maskJavaScriptBody } from '../../src/languages/javascript/mask-javascript-body.js';
import { parseJavaScriptUnits } from '../../src/languages/javascript/parse-javascript-units.js';
import type { Unit } from '../../src/pipeline/types.js';
import { fixtureSnapshot, makeTempDir, removeTempDirs } from './languages-javascript-fixtures.js';

beforeAll(async () => {
  await loadJavaScriptGrammars();
});
afterAll(removeTempDirs);

function parsesCleanly(file: string, text: string): boolean {
  const parser = createJavaScriptParser(grammarOf(file));
  const tree = parser.parse(text);
  const ok = tree !== null && !tree.rootNode.hasError;
  tree?.delete();
  parser.delete();
  return ok;
}

async function unitsOf(name: string): Promise<{ dir: string; units: Unit[] }> {
  const snapshot = fixtureSnapshot(name);
  return { dir: snapshot.dir, units: (await parseJavaScriptUnits(snapshot)).units };
}

describe('maskJavaScriptBody', () => {
  for (const pkg of ['esm-pkg', 'cjs-pkg', 'ts-pkg']) {
    it(`masks every unit of ${pkg} into a file that still parses, keeping its signature and JSDoc`, async () => {
      const { dir, units } = await unitsOf(pkg);
      expect(units.length).toBeGreaterThan(4);
      // a class unit is never masked: its methods are
      for (const unit of units.filter((u) => u.kind !== 'class')) {
        const source = readFileSync(join(dir, unit.file), 'utf8');
        const masked = maskJavaScriptBody(source, unit);
        expect(parsesCleanly(unit.file, masked), unit.id).toBe(true);
        expect(masked.split(MASKED_BODY)).toHaveLength(2);
        const signatureHead = unit.signature.split('\n')[0] ?? '';
        expect(masked).toContain(signatureHead);
        if (unit.docstring !== null) expect(masked).toContain(unit.docstring.split('\n')[0]);
        // the masked unit is found again, and its body is now the one statement
        const again = (await maskAndReparse(dir, unit, masked));
        expect(again?.statementCount, unit.id).toBe(1);
      }
    });
  }

  async function maskAndReparse(dir: string, unit: Unit, masked: string): Promise<Unit | undefined> {
    const { writeFileSync, mkdirSync } = await import('node:fs');
    const { dirname } = await import('node:path');
    const tmp = makeTempDir('js-mask-');
    mkdirSync(join(tmp, dirname(unit.file)), { recursive: true });
    writeFileSync(join(tmp, unit.file), masked);
    const pkg = readFileSync(join(dir, 'package.json'));
    writeFileSync(join(tmp, 'package.json'), pkg);
    const { units } = await parseJavaScriptUnits({ dir: tmp, origin: tmp, revision: 'x', files: ['package.json', unit.file] });
    return units.find((u) => u.id === unit.id);
  }

  it('gives an expression-bodied arrow a block body and keeps its JSDoc', async () => {
    const { dir, units } = await unitsOf('esm-pkg');
    const words = units.find((u) => u.qualname === 'words');
    if (words === undefined) throw new Error('no words');
    const masked = maskJavaScriptBody(readFileSync(join(dir, 'src/text.js'), 'utf8'), words);
    expect(masked).toContain(`/** Splits words on runs of spaces. */\nexport const words = (text) => {\n  ${MASKED_BODY}\n};\n`);
    expect(masked).not.toContain("text.split(/ +/)");
  });

  it('keeps getter, static and TypeScript modifiers and types', async () => {
    const esm = await unitsOf('esm-pkg');
    const source = readFileSync(join(esm.dir, 'src/shapes.js'), 'utf8');
    const getter = esm.units.find((u) => u.qualname === 'Rect.perimeter');
    const square = esm.units.find((u) => u.qualname === 'Rect.square');
    if (getter === undefined || square === undefined) throw new Error('units missing');
    const maskedGetter = maskJavaScriptBody(source, getter);
    expect(maskedGetter).toContain(`  get perimeter() {\n    ${MASKED_BODY}\n  }\n\n  set perimeter(value) {\n    this.width = value / 4;`);
    expect(maskJavaScriptBody(source, square)).toContain(`  static square(side) {\n    ${MASKED_BODY}\n  }`);

    const ts = await unitsOf('ts-pkg');
    const stats = readFileSync(join(ts.dir, 'src/stats.ts'), 'utf8');
    const of = ts.units.find((u) => u.qualname === 'Counter.of');
    const median = ts.units.find((u) => u.qualname === 'median');
    const double = ts.units.find((u) => u.qualname === 'double');
    if (of === undefined || median === undefined || double === undefined) throw new Error('units missing');
    expect(maskJavaScriptBody(stats, of)).toContain(`  public static of<U>(items: U[]): Counter<U> {\n    ${MASKED_BODY}\n  }`);
    const maskedMedian = maskJavaScriptBody(stats, median);
    expect(maskedMedian).toContain('export function median(values: number[]): number;\nexport function median(values: number[]): number {\n  throw');
    expect(maskJavaScriptBody(stats, double)).toContain(`export const double = (x: number): number => {\n  ${MASKED_BODY}\n};`);
  });

  it('masks a one-line body in place and keeps CRLF line endings', async () => {
    const { writeFileSync } = await import('node:fs');
    const dir = makeTempDir('js-mask-');
    const source = 'export function one(a) { return a + 1; }\r\nexport function two(b) {\r\n  return b;\r\n}\r\n';
    writeFileSync(join(dir, 'm.js'), source);
    const { units } = await parseJavaScriptUnits({ dir, origin: dir, revision: 'x', files: ['m.js'] });
    const [one, two] = units;
    if (one === undefined || two === undefined) throw new Error('units missing');
    expect(maskJavaScriptBody(source, one)).toBe(`export function one(a) { ${MASKED_BODY} }\r\nexport function two(b) {\r\n  return b;\r\n}\r\n`);
    expect(maskJavaScriptBody(source, two)).toBe(`export function one(a) { return a + 1; }\r\nexport function two(b) {\r\n  ${MASKED_BODY}\r\n}\r\n`);
  });
});
