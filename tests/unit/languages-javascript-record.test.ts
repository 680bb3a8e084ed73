import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type JavaScriptRecordRequest, recordJavaScriptTwice, type TaggedValue } from '../../src/languages/javascript/record-javascript-cases.js';
import { FIXTURES, TEST_NODE } from './languages-javascript-fixtures.js';

const num = (v: number): TaggedValue => ({ t: 'number', v: String(v) });
const str = (v: string): TaggedValue => ({ t: 'str', v });
const TYPESCRIPT = join(import.meta.dirname, '../../node_modules/typescript');

/** recordJavaScriptTwice on the test node binary. */
function recordTwice(req: JavaScriptRecordRequest, options: { startupMs?: number } = {}): ReturnType<typeof recordJavaScriptTwice> {
  return recordJavaScriptTwice(req, { nodePath: TEST_NODE, ...options });
}

function request(pkg: string, module: string, target: string, inputs: TaggedValue[][], extra: Partial<JavaScriptRecordRequest> = {}): JavaScriptRecordRequest {
  return { root: join(FIXTURES, pkg), module, target, init: null, inputs: inputs.map((args) => ({ args })), timeoutMs: 2000, ...extra };
}

describe('recordJavaScriptTwice', () => {
  it('records an ES module function twice with identical encodings, and a throw by class', async () => {
    const result = await recordTwice(request('esm-pkg', 'src/text', 'padLeft', [[str('ab'), num(5), str('*')], [{ t: 'null' }]]));
    expect(result.rejected).toEqual([]);
    expect(result.kept).toEqual([
      { index: 0, expect: { returns: str('***ab') }, argsAfter: [str('ab'), num(5), str('*')] },
      { index: 1, expect: { raises: 'TypeError' }, argsAfter: [{ t: 'null' }] },
    ]);
  });

  it('reaches instance methods (init), getters, static methods and default-object members', async () => {
    const area = await recordTwice(request('esm-pkg', 'src/shapes', 'Rect.area', [[]], { init: { args: [num(2), num(3)] } }));
    expect(area.kept[0]?.expect).toEqual({ returns: num(6) });
    const perimeter = await recordTwice(request('esm-pkg', 'src/shapes', 'Rect.perimeter', [[]], { init: { args: [num(2), num(3)] } }));
    expect(perimeter.kept[0]?.expect).toEqual({ returns: num(10) });
    const scale = await recordTwice(request('esm-pkg', 'src/shapes', 'Rect.scale', [[num(0)], [num(2)]], { init: { args: [num(1), num(1)] } }));
    expect(scale.kept.map((k) => k.expect)).toEqual([
      { raises: 'RangeError' },
      // a returned object says which objects of the arguments it shares: none
      { returns: { t: 'instance', v: { class: 'Rect', props: [['width', num(2)], ['height', num(2)]] } }, aliases: [] },
    ]);
    const square = await recordTwice(request('esm-pkg', 'src/shapes', 'Rect.square', [[num(3)]]));
    expect(square.kept[0]?.expect).toEqual({ returns: { t: 'instance', v: { class: 'Rect', props: [['width', num(3)], ['height', num(3)]] } }, aliases: [] });
    const describeShape = await recordTwice(request('esm-pkg', 'src/shapes', 'default.describe', [[{ t: 'object', v: [['width', num(1)], ['height', num(2)]] }]]));
    expect(describeShape.kept[0]?.expect).toEqual({ returns: str('1x2') });
    // an instance input is built from the class the module exports under that name
    const rect = { t: 'instance', v: { class: 'Rect', props: [['width', num(4)], ['height', num(2)]] } };
    const ratio = await recordTwice(request('esm-pkg', 'src/shapes', 'default.ratio', [[rect]]));
    expect(ratio.kept[0]?.expect).toEqual({ returns: num(2) });
    const unknown = await recordTwice(request('esm-pkg', 'src/shapes', 'default.ratio', [[{ t: 'instance', v: { class: 'Nope', props: [] } }]]));
    expect(unknown.rejected).toMatchObject([{ reason: 'error', detail: expect.stringContaining('no class named Nope') }]);
  });

  it('loads CommonJS modules with require', async () => {
    const mean = await recordTwice(request('cjs-pkg', 'lib/math', 'mean', [[{ t: 'array', v: [num(1), num(2)] }], [{ t: 'array', v: [] }]]));
    expect(mean.kept.map((k) => k.expect)).toEqual([{ returns: num(1.5) }, { returns: { t: 'number', v: 'NaN' } }]);
    const clamp = await recordTwice(request('cjs-pkg', 'lib/math', 'clamp', [[num(5), num(3), num(1)]]));
    expect(clamp.kept[0]?.expect).toEqual({ raises: 'TypeError' });
    const total = await recordTwice(request('cjs-pkg', 'lib/fmt', 'total', [[{ t: 'array', v: [{ t: 'bigint', v: '2' }, { t: 'bigint', v: '3' }] }]]));
    expect(total.kept[0]?.expect).toEqual({ returns: { t: 'bigint', v: '5' } });
  });

  it('transpiles TypeScript sources (ESM, with ./util.js naming util.ts)', async () => {
    const summary = await recordTwice(request('ts-pkg', 'src/stats', 'summarize', [[{ t: 'array', v: [num(1.234), num(5)] }], [{ t: 'array', v: [] }]], { typescriptPath: TYPESCRIPT }));
    expect(summary.kept.map((k) => k.expect)).toEqual([
      { returns: { t: 'object', v: [['min', num(1.23)], ['max', num(5)]] }, aliases: [] },
      { raises: 'RangeError' },
    ]);
    const top = await recordTwice(request('ts-pkg', 'src/stats', 'Counter.of', [[{ t: 'array', v: [str('a')] }]], { typescriptPath: TYPESCRIPT }));
    expect(top.kept[0]?.expect).toMatchObject({ returns: { t: 'instance', v: { class: 'Counter' } } });
  }, 60_000); // each process loads the typescript package

  it('awaits promises, records rejections by class, and keeps argument mutations', async () => {
    const result = await recordTwice(request('edge-pkg', 'edge', 'rejectLater', [[str('range')], [str('ok')]]));
    expect(result.kept.map((k) => k.expect)).toEqual([{ raises: 'RangeError' }, { returns: str('ok') }]);
    const pushed = await recordTwice(request('edge-pkg', 'edge', 'push', [[{ t: 'array', v: [num(1)] }, num(2)]]));
    expect(pushed.kept[0]).toEqual({ index: 0, expect: { returns: num(2) }, argsAfter: [{ t: 'array', v: [num(1), num(2)] }, num(2)] });
    const noisy = await recordTwice(request('edge-pkg', 'edge', 'noisy', [[num(7)]]));
    expect(noisy.kept[0]?.expect).toEqual({ returns: num(7) });
  });

  it('rejects non-deterministic, unrecordable, hanging and unloadable inputs with reasons', async () => {
    const coin = await recordTwice(request('edge-pkg', 'edge', 'coin', Array.from({ length: 30 }, () => [])));
    expect(coin.rejected.some((r) => r.reason === 'non-deterministic')).toBe(true);
    const adder = await recordTwice(request('edge-pkg', 'edge', 'makeAdder', [[num(1)]]));
    expect(adder.rejected).toMatchObject([{ index: 0, reason: 'unrecordable:function' }]);
    const never = await recordTwice(request('edge-pkg', 'edge', 'never', [[]], { timeoutMs: 300 }));
    expect(never.rejected).toMatchObject([{ index: 0, reason: 'timeout' }]);
    const spin = await recordTwice(request('edge-pkg', 'edge', 'spin', [[num(1)], [num(-1)], [num(2)]], { timeoutMs: 300 }), { startupMs: 1500 });
    expect(spin.kept.map((k) => [k.index, k.expect])).toEqual([[0, { returns: num(1) }], [2, { returns: num(2) }]]);
    expect(spin.rejected).toMatchObject([{ index: 1, reason: 'timeout' }]);
    const broken = await recordTwice(request('edge-pkg', 'broken', 'anything', [[]]));
    expect(broken.rejected).toMatchObject([{ index: 0, reason: 'error' }]);
    expect(broken.rejected[0]?.detail).toContain('cannot load broken');
  }, 60_000);
});
