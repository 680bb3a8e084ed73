import { describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../src/logging.js';
import { maskPythonBody } from '../../src/languages/python/mask-body.js';
import { createLeakAuditor } from '../../src/pipeline/audit/audit-leaks.js';
import { coMaskSiblings } from '../../src/pipeline/audit/co-mask-siblings.js';
import type { SourceText } from '../../src/pipeline/audit/leak-index.js';
import { maskWorkspace } from '../../src/pipeline/mask/mask-workspace.js';
import type { Unit } from '../../src/pipeline/types.js';
import { makeUnit } from '../fixtures/units.js';
import { createPythonPlugin } from '../../src/languages/python/python-plugin.js';

const python = createPythonPlugin();

function unitOf(qualname: string, lines: { start: number; end: number; bodyStart: number }, file = 'pkg/mod.py', kind: Unit['kind'] = 'function'): Unit {
  const module = file.replace(/\.py$/, '').replace(/\//g, '.');
  return makeUnit({
    id: `${module}:${qualname}`, kind, module, qualname, file, startLine: lines.start, endLine: lines.end, bodyStartLine: lines.bodyStart, bodyEndLine: lines.end,
    signature: `def ${qualname}(items):`, params: [],
  });
}

/** A body of 4 statements; `name` is the one token in which the twins differ. */
const body = (name: string): string[] => ['    seen = set()', '    for item in items:', '        seen.add(item.strip().lower())', `    return '${name}' in seen`];

const MODULE = [
  'def has_a(items):', // 1
  ...body('a'), // 2-5
  '',
  '',
  'def count_seen(items):', // 8: shares the first two statements only
  '    seen = set()',
  '    for item in items:',
  '        seen.add(item)',
  '    return len(seen)', // 12
  '',
  '',
  'def has_b(items):', // 15
  ...body('b'), // 16-19
  '',
].join('\n');

const HAS_A = unitOf('has_a', { start: 1, end: 5, bodyStart: 2 });
const COUNT_SEEN = unitOf('count_seen', { start: 8, end: 12, bodyStart: 9 });
const HAS_B = unitOf('has_b', { start: 15, end: 19, bodyStart: 16 });

/** Masks and audits `files` for HAS_A, then co-masks, against an image holding `imageFiles`. */
async function run(files: Map<string, Buffer>, units: readonly Unit[], options: { imageFiles?: SourceText[]; limits?: { rounds: number; units: number } } = {}) {
  const auditor = createLeakAuditor({ reader: { readSourceFiles: async () => options.imageFiles ?? [] }, logger: createSilentLogger(), language: python.leaks });
  const masks: string[][] = [];
  const mask = async (alsoMask: readonly Unit[]) => {
    masks.push(alsoMask.map((u) => u.id));
    return maskWorkspace({ unit: HAS_A, files, maskBody: maskPythonBody, repoTests: python.repoTests, alsoMask });
  };
  const audit = (m: ReturnType<typeof maskWorkspace>) => auditor.audit({ removedBody: m.removedBody, workspace: m.workspace, image: 'img' });
  const masked = await mask([]);
  masks.length = 0;
  const leak = await audit(masked);
  const result = await coMaskSiblings({ unit: HAS_A, units, files, masked, leak, mask, audit, tokenize: python.leaks.tokenize, ...(options.limits ? { limits: options.limits } : {}) });
  return { first: leak, result, masks };
}

describe('coMaskSiblings', () => {
  it('masks the near-copy below the target and leaves a function that shares only its first statements', async () => {
    const files = new Map([['pkg/mod.py', Buffer.from(MODULE)]]);
    const { first, result, masks } = await run(files, [HAS_A, COUNT_SEEN, HAS_B]);
    expect(first.clean).toBe(false);
    // count_seen holds matching runs too, but covers too little of the body to be masked
    expect(first.hits[0]?.spans.length).toBe(2);
    expect(masks).toEqual([['pkg.mod:has_b']]);
    expect(result.leak.clean).toBe(true);
    expect(result.coMasked.map((u) => u.id)).toEqual(['pkg.mod:has_b']);
    expect(result.masked.coMasked).toEqual([{ unit: 'pkg.mod:has_b', file: 'pkg/mod.py', bodyLines: [16, 19] }]);
    expect(result.masked.workspace.get('pkg/mod.py')?.toString()).toContain('        seen.add(item)\n');
  });

  it('masks copies in other files, and every copy that leaks on its own in one round', async () => {
    const other = ['def has_c(items):', ...body('c'), ''].join('\n');
    const files = new Map([
      ['pkg/mod.py', Buffer.from(MODULE)],
      ['pkg/other.py', Buffer.from(other)],
    ]);
    const hasC = unitOf('has_c', { start: 1, end: 5, bodyStart: 2 }, 'pkg/other.py');
    const { result, masks } = await run(files, [HAS_A, COUNT_SEEN, HAS_B, hasC]);
    expect(masks).toEqual([['pkg.mod:has_b', 'pkg.other:has_c']]);
    expect(result.leak.clean).toBe(true);
  });

  it('gives up past the unit limit, on a copy in the image, and on a copy in no function or method', async () => {
    const files = new Map([['pkg/mod.py', Buffer.from(MODULE)]]);
    const overLimit = await run(files, [HAS_A, COUNT_SEEN, HAS_B], { limits: { rounds: 2, units: 0 } });
    expect(overLimit.masks).toEqual([]);
    expect(overLimit.result).toMatchObject({ leak: { clean: false }, coMasked: [] });

    const inImage = await run(files, [HAS_A, COUNT_SEEN, HAS_B], { imageFiles: [{ path: '/usr/lib/python3/copy.py', content: ['def f(items):', ...body('a')].join('\n') }] });
    expect(inImage.masks).toEqual([]);
    expect(inImage.result.leak.clean).toBe(false);

    // has_b's lines, but known only as the body of a class, or as no unit at all
    const holder = unitOf('Holder', { start: 15, end: 19, bodyStart: 16 }, 'pkg/mod.py', 'class');
    for (const units of [[HAS_A, holder], [HAS_A]]) {
      const notAFunction = await run(files, units);
      expect(notAFunction.masks).toEqual([]);
      expect(notAFunction.result.leak.clean).toBe(false);
    }
  });
});
