import { spawnSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { taskFileSchema } from '../../src/tasks/task-schema.js';
import { renderTaskFile, repoLabel } from '../../src/pipeline/write/render-task-file.js';
import { stableJson } from '../../src/pipeline/write/stable-json.js';
import { assignTaskNames, writeTask } from '../../src/pipeline/write/write-task.js';
import type { RecordedCase, Recording, Unit } from '../../src/pipeline/types.js';
import { makeUnit } from '../fixtures/units.js';
import { createPythonPlugin } from '../../src/languages/python/python-plugin.js';

const python = createPythonPlugin();

const unit: Unit = makeUnit({
  id: 'geo.shapes:Box.scale',
  kind: 'method',
  module: 'geo.shapes',
  qualname: 'Box.scale',
  file: 'geo/shapes.py',
  startLine: 5,
  endLine: 12,
  bodyStartLine: 8,
  bodyEndLine: 12,
  signature: 'def scale(self, factors, clamp=None):',
  params: [],
  docstring: 'Scales the box by each factor in turn.\n\n    Negative factors raise ValueError.',
});

const t = (tag: string, v: unknown): { t: string; v: unknown } => ({ t: tag, v });

/** A case judged as builtins.list over one `repr` expression (the probed, restored, … forms). */
function listOfExpression(id: string, expr: string, module: string, expect: RecordedCase['expect']): RecordedCase {
  return { id, module: 'builtins', target: 'list', init: null, args: [{ t: 'repr', v: expr, imports: [module] }], kwargs: {}, expect, argsAfter: null, source: 'type-hint' };
}

function caseOf(id: string, n: number, expect: RecordedCase['expect'], source = 'type-hint', argsAfter: unknown[] | null = null): RecordedCase {
  return {
    id,
    module: 'geo.shapes',
    target: 'Box.scale',
    init: { args: [t('int', '2'), t('int', '3')], kwargs: {} },
    args: [t('list', [t('int', String(n))])],
    kwargs: n % 2 ? { clamp: t('float', '1.5') } : {},
    expect,
    argsAfter,
    source,
  };
}

const cases: RecordedCase[] = [
  caseOf('r-9', 3, { returns: t('tuple', [t('int', '6'), t('int', '9')]) }),
  caseOf('r-1', 1, { returns: t('tuple', [t('int', '2'), t('int', '3')]) }, 'doctest'),
  caseOf('r-5', -1, { raises: 'builtins.ValueError' }),
  caseOf('r-2', 2, { returns: t('tuple', [t('int', '4'), t('int', '6')]) }, 'repo-test', [t('list', [t('int', '2')])]),
  caseOf('dup', 2, { returns: t('tuple', [t('int', '4'), t('int', '6')]) }),
  caseOf('r-7', 4, { returns: t('object', { type: 'geo.shapes.Box', state: t('dict', [[t('str', 'w'), t('int', '8')], [t('str', 'h'), t('str', "it's")]]) }) }),
];

const recording = (cs: RecordedCase[]): Recording => ({ unitId: unit.id, cases: cs, mutation: { total: 10, killed: 9, score: 0.9, survivors: [] }, sources: {}, rejected: {} });

async function written(cs: RecordedCase[], target: Unit = unit): Promise<Awaited<ReturnType<typeof writeTask>>> {
  return writeTask({ suite: 'geo', name: 'box-scale', unit: target, recording: recording(cs), snapshot: { origin: 'examples/geo', revision: 'working-tree' }, writer: python.writer, libraryName: 'the Python package `geo`' });
}

describe('writeTask', () => {
  it('gives the same bytes whatever order and ids the recorder used, with duplicates dropped and ids renumbered', async () => {
    const a = await written(cases);
    const b = await written([...cases].reverse().map((c, i) => ({ ...c, id: `other-${i}` })));
    expect([...a.hidden.keys()]).toEqual(['cases.json', 'readable/test_box_scale.py']);
    for (const [path, content] of a.hidden) expect(b.hidden.get(path)?.equals(content), path).toBe(true);
    expect(a.prompt).toBe(b.prompt);
    const file = JSON.parse(a.hidden.get('cases.json')?.toString() ?? '{}');
    expect(file.schemaVersion).toBe(1);
    expect(file.cases.map((c: RecordedCase) => c.id)).toEqual(['box-scale-1', 'box-scale-2', 'box-scale-3', 'box-scale-4', 'box-scale-5']);
    expect(a.hidden.get('cases.json')?.toString().endsWith('}\n')).toBe(true);
  });

  it('writes a prompt with the signature, docstring, location and at most 3 examples (one exception at most)', async () => {
    const { prompt, title } = await written(cases);
    expect(title).toBe('Scales the box by each factor in turn');
    expect(prompt).toContain('```python\ndef scale(self, factors, clamp=None):\n```');
    expect(prompt).toContain('Negative factors raise ValueError.');
    expect(prompt).toContain('`geo/shapes.py` (module `geo.shapes`, class `Box`');
    // the import line, then 3 examples
    expect(prompt.match(/^>>> /gm)?.length).toBe(4);
    expect(prompt).toContain('```python\n>>> from geo.shapes import Box\n\n>>> ');
    expect(prompt).toContain('>>> Box(2, 3).scale([1], clamp=1.5)\n(2, 3)');
    expect(prompt).toContain('Hidden tests check 5 recorded cases');
  });

  it('renders task.json that the task schema accepts, with no absolute path in it', async () => {
    const w = await written(cases);
    const json = renderTaskFile({ suite: 'geo', language: python, name: 'box-scale', unit, snapshot: { origin: join(process.cwd(), 'examples/geo'), revision: 'working-tree' }, title: w.title, prompt: w.prompt, gates: null });
    const parsed = taskFileSchema.parse(JSON.parse(stableJson(json)));
    expect(json['schemaVersion']).toBe(2);
    expect(parsed.tests).toEqual({ runner: 'python', cases: 'cases.json', scripts: [], timeoutMs: 120_000, caseTimeoutMs: 10_000 });
    expect(parsed.source).toEqual({ repo: 'examples/geo', revision: 'working-tree', path: 'geo/shapes.py', symbol: 'Box.scale' });
    // built tasks reward binary unless the build asks for fraction (issue 19, part 8)
    expect(parsed.rewardMode).toBe('binary');
    const fraction = renderTaskFile({ suite: 'geo', language: python, name: 'box-scale', unit, snapshot: { origin: 'examples/geo', revision: 'working-tree' }, title: w.title, prompt: w.prompt, gates: null, rewardMode: 'fraction' });
    expect(taskFileSchema.parse(JSON.parse(stableJson(fraction))).rewardMode).toBe('fraction');
    expect(repoLabel('/somewhere/else/lib', '/work')).toBe('lib');
    expect(repoLabel('https://github.com/a/b.git')).toBe('https://github.com/a/b.git');
  });

  it('writes importRoots and the import path into task.json and the prompt of a module below the root (src/ layout)', async () => {
    const underSrc: Unit = { ...unit, file: 'src/geo/shapes.py' };
    const w = await written(cases, underSrc);
    expect(w.prompt).toContain('imported as `from geo.shapes import Box` with `src/` on the import path)');
    const json = renderTaskFile({ suite: 'geo', language: python, name: 'box-scale', unit: underSrc, snapshot: { origin: 'examples/geo', revision: 'working-tree' }, title: w.title, prompt: w.prompt, gates: null });
    expect(taskFileSchema.parse(JSON.parse(stableJson(json))).tests).toEqual({ runner: 'python', cases: 'cases.json', scripts: [], timeoutMs: 120_000, caseTimeoutMs: 10_000, importRoots: ['src'] });
    expect((await written(cases)).prompt).not.toContain('on the import path');
  });

  it('names tasks uniquely and stably', () => {
    const other = { ...unit, id: 'geo.other:Box.scale', module: 'geo.other' };
    expect([...assignTaskNames([unit, other]).values()]).toEqual(['geo-shapes-box-scale', 'geo-other-box-scale']);
    expect(assignTaskNames([{ ...unit, qualname: 'to_roman', id: 'x:to_roman' }]).get('x:to_roman')).toBe('to-roman');
    // names that collide even module-qualified (`_get` and `get`): numbered, in unit-id order, whatever the input order
    const get = { ...unit, module: 'toolz.itertoolz', qualname: 'get', id: 'toolz.itertoolz:get' };
    const privateGet = { ...unit, module: 'toolz.itertoolz', qualname: '_get', id: 'toolz.itertoolz:_get' };
    const names = assignTaskNames([get, privateGet]);
    expect([...names.entries()]).toEqual([['toolz.itertoolz:get', 'toolz-itertoolz-get-2'], ['toolz.itertoolz:_get', 'toolz-itertoolz-get']]);
    expect(assignTaskNames([privateGet, get])).toEqual(names);
  });

  it('renders a readable pytest file that passes on the original code', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'codemidas-readable-'));
    try {
      await mkdir(join(dir, 'geo'));
      await writeFile(join(dir, 'geo/__init__.py'), '');
      await writeFile(
        join(dir, 'geo/shapes.py'),
        [
          'class Box:',
          '    def __init__(self, w, h):',
          '        self.w, self.h = w, h',
          '    def scale(self, factors, clamp=None):',
          '        if factors[0] < 0:',
          '            raise ValueError("negative")',
          '        if factors[0] == 4:',
          '            self.w, self.h = 8, "it\'s"',
          '            return self',
          '        result = (self.w * factors[0], self.h * factors[0])',
          '        factors[0] = factors[0]',
          '        return result',
          '',
        ].join('\n'),
      );
      const w = await written(cases);
      await writeFile(join(dir, 'test_readable.py'), w.hidden.get('readable/test_box_scale.py') ?? '');
      const run = spawnSync('/usr/bin/python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_readable.py'], { cwd: dir, encoding: 'utf8' });
      expect(run.stdout + run.stderr).toMatch(/5 passed/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('renderPrompt for a generator', () => {
  it('shows the call the task judges, list(itertools.islice(...)), not the generator called on it', async () => {
    const { renderPrompt } = await import('../../src/languages/python/render-prompt.js');
    const gen: Unit = { ...unit, id: 'geo.seq:pairs', kind: 'function', module: 'geo.seq', qualname: 'pairs', isGenerator: true };
    const generatorCase: RecordedCase = {
      id: 'pairs-1',
      module: 'builtins',
      target: 'list',
      init: null,
      args: [{ t: 'repr', v: 'itertools.islice(geo.seq.pairs([1, 2, 3]), 100)', imports: ['geo.seq', 'itertools'] } as unknown],
      kwargs: {},
      expect: { returns: t('list', [t('tuple', [t('int', '1'), t('int', '2')])]) },
      argsAfter: null,
      source: 'doctest',
    };
    const prompt = renderPrompt({ unit: gen, cases: [generatorCase], libraryName: 'geo' });
    expect(prompt).toContain('>>> list(itertools.islice(geo.seq.pairs([1, 2, 3]), 100))');
    expect(prompt).not.toContain('pairs(itertools.islice');
  });
});

describe('renderPrompt for a function that returns a function', () => {
  it('shows the returned function called on its probe and the value, not the list the task collects', async () => {
    const { renderPrompt } = await import('../../src/languages/python/render-prompt.js');
    const maker: Unit = { ...unit, id: 'geo.fn:scaler', kind: 'function', module: 'geo.fn', qualname: 'scaler' };
    const probed = (id: string, expr: string, expect: RecordedCase['expect']): RecordedCase => listOfExpression(id, `(${expr} for _ in (0,))`, 'geo.fn', expect);
    const prompt = renderPrompt({
      unit: maker,
      cases: [probed('s-1', 'geo.fn.scaler(2)(3)', { returns: t('list', [t('int', '6')]) }), probed('s-2', "geo.fn.scaler(2)('a', 'b')", { raises: 'builtins.TypeError' })],
      libraryName: 'geo',
    });
    expect(prompt).toContain('>>> geo.fn.scaler(2)(3)\n6\n');
    expect(prompt).toContain(">>> geo.fn.scaler(2)('a', 'b')\nTraceback (most recent call last):\nTypeError: ...");
    expect(prompt).not.toContain('for _ in');
  });
});

describe('renderPrompt for a unit recorded through an entry (Unit.via)', () => {
  it('names the entry the hidden tests call, shows its signature and docstring, and examples of calls to it', async () => {
    const { renderPrompt } = await import('../../src/languages/python/render-prompt.js');
    const helper: Unit = {
      ...unit,
      id: 'geo.shapes:Box._grow',
      qualname: 'Box._grow',
      signature: 'def _grow(self, factor):',
      docstring: null,
      via: { id: 'geo.shapes:Box.scale', kind: 'method', qualname: 'Box.scale', signature: unit.signature, params: [], returnAnnotation: null, docstring: unit.docstring, decorators: [], isAsync: false, callSites: [] },
    };
    const scaleCase: RecordedCase = {
      id: 'c1', module: 'geo.shapes', target: 'Box.scale', init: { args: [t('int', '2')], kwargs: {} }, args: [t('list', [t('int', '3')])], kwargs: {},
      expect: { returns: t('int', '6') }, argsAfter: null, source: 'repo-test',
    };
    const prompt = renderPrompt({ unit: helper, cases: [scaleCase], libraryName: 'geo' });
    expect(prompt).toContain('# Implement `Box._grow` in `geo/shapes.py`');
    expect(prompt).toContain('the hidden tests call `Box.scale`, not `Box._grow` itself');
    expect(prompt).toContain('imported as `from geo.shapes import Box`');
    expect(prompt).toContain('## The entry the hidden tests call\n\n```python\ndef scale(self, factors, clamp=None):\n```');
    expect(prompt).toContain('Scales the box by each factor in turn.');
    expect(prompt).toContain('>>> Box(2).scale([3])\n6');
    expect(prompt).not.toContain('._grow(');
  });
});

describe('renderPrompt for a method called on a receiver rebuilt from its attributes (restored)', () => {
  it('shows the call on the rebuilt receiver, whether its attributes are set by vars().update or one by one (__slots__)', async () => {
    const { renderPrompt } = await import('../../src/languages/python/render-prompt.js');
    const restoredCase = (id: string, receiver: string): RecordedCase =>
      listOfExpression(id, `(_o.scale(3) for _ in (0,) for _o in (${receiver},))`, 'geo.shapes', { returns: t('list', [t('int', '6')]) });
    const plain = "(lambda _o: vars(_o).update({'w': 2}) or _o)(object.__new__(geo.shapes.Box))";
    const slotted = "(lambda _o: any(object.__setattr__(_o, k, v) for k, v in {'w': 2}.items()) or _o)(object.__new__(geo.shapes.Box))";
    for (const receiver of [plain, slotted]) {
      const prompt = renderPrompt({ unit, cases: [restoredCase('r', receiver)], libraryName: 'geo' });
      expect(prompt).toContain(`# called on an instance built from the attributes shown, __init__ not called (its __new__, then each attribute set)\n>>> ${receiver}.scale(3)\n6`);
      expect(prompt).not.toContain('for _ in');
    }
  });
});

describe('examples by behaviour class (issue 19, part 3)', () => {
  const withPath = (c: RecordedCase, path: string): RecordedCase => ({ ...c, path });

  it('shows one example of every class, results before exceptions and larger classes first, the rest under More examples', async () => {
    const { pickExamples, renderPrompt } = await import('../../src/languages/python/render-prompt.js');
    const { behaviourClasses } = await import('../../src/pipeline/write/behaviour-classes.js');
    const many = [
      ...[1, 2, 3].map((n) => withPath(caseOf(`a${n}`, n, { returns: t('tuple', [t('int', String(n)), t('int', '0')]) }), 'p-small')),
      withPath(caseOf('raise', -1, { raises: 'builtins.ValueError' }), 'p-neg'),
      ...[5, 6, 7, 8, 9].map((n) => withPath(caseOf(`b${n}`, n * 10, { returns: t('tuple', [t('int', String(n)), t('int', '1')]) }), `p-${n}`)),
    ];
    const picked = pickExamples(many);
    // 7 classes: the 3-case one first (its shortest case: a2 has no clamp), the five single ones, then the exception
    expect(picked.map((c) => c.id)).toEqual(['a2', 'b5', 'b6', 'b7', 'b8', 'b9', 'raise']);
    const prompt = renderPrompt({ unit, cases: many, libraryName: 'geo' });
    expect(prompt).toContain('## More examples\n\nOne example of each other behaviour the hidden tests check:');
    expect(prompt.match(/^>>> Box\(/gm)).toHaveLength(7);
    expect(behaviourClasses(many, picked.slice(0, 3))).toMatchObject({ total: 7, shown: 3 });
    expect(behaviourClasses(many, picked).classes.find((c) => c.class === 'p-small|returns')).toEqual({ class: 'p-small|returns', cases: 3, shown: true });
  });

  it("keeps the classes of cases without a line apart per target: one unit's example does not show another's", async () => {
    const { behaviourClasses } = await import('../../src/pipeline/write/behaviour-classes.js');
    const a = caseOf('a', 1, { raises: 'pkg.Bad' });
    const b = { ...caseOf('b', 2, { raises: 'pkg.Bad' }), target: 'Box.area' };
    expect(behaviourClasses([a, b], [a])).toMatchObject({ total: 2, shown: 1 });
    expect(behaviourClasses([a, withPath(b, 'line 3')], [withPath(b, 'line 3')]).classes.map((c) => c.class)).toEqual(['- Box.scale|raises pkg.Bad', 'line 3|raises pkg.Bad']);
  });

  it('fills up to three examples from one class when the cases have only one', async () => {
    const { pickExamples } = await import('../../src/languages/python/render-prompt.js');
    const one = [1, 2, 3, 4].map((n) => withPath(caseOf(`o${n}`, n, { returns: t('int', String(n)) }), 'same'));
    expect(pickExamples(one)).toHaveLength(3);
  });
});

describe('the prompt of an undocumented unit (issue 19, part 5)', () => {
  it('says the examples are its spec and shows how the repository calls it, tests left out', async () => {
    const { renderPrompt } = await import('../../src/languages/python/render-prompt.js');
    const bare: Unit = {
      ...unit,
      docstring: null,
      callSites: [
        { file: 'tests/test_shapes.py', line: 4, caller: 'test_scale', argumentTexts: ['[9]'], allLiteral: true },
        { file: 'geo/render.py', line: 30, caller: 'draw', argumentTexts: ['factors', 'clamp=2'], allLiteral: false },
      ],
    };
    const prompt = renderPrompt({ unit: bare, cases, libraryName: 'geo' });
    expect(prompt).toContain('## Behaviour\n\n`Box.scale` has no documentation. What it must do is what the examples below show');
    expect(prompt).toContain('- `scale(factors, clamp=2)` in `draw` (`geo/render.py`, line 30)');
    expect(prompt).not.toContain('test_scale');
  });
});

describe('the prompt of a class task (issue 19, part 1)', () => {
  it("names the class and every removed method with its signature and documentation, then each method's examples", async () => {
    const { pickExamples, renderPrompt } = await import('../../src/languages/python/render-prompt.js');
    const area: Unit = { ...unit, id: 'geo.shapes:Box.area', qualname: 'Box.area', signature: 'def area(self):', docstring: 'The area.', startLine: 20, endLine: 22, bodyStartLine: 22, bodyEndLine: 22 };
    const areaCase = (id: string, w: number): RecordedCase => ({ id, module: 'geo.shapes', target: 'Box.area', init: { args: [t('int', String(w)), t('int', '3')], kwargs: {} }, args: [], kwargs: {}, expect: { returns: t('int', String(3 * w)) }, argsAfter: null, source: 'type-hint', path: 'line 22' });
    const all = [...cases, areaCase('a1', 2), areaCase('a2', 4)];
    const picked = pickExamples(all);
    // each method's own examples, picked as for a task of that method alone
    expect(picked.filter((c) => c.target === 'Box.area').length).toBeGreaterThanOrEqual(1);
    expect(picked.filter((c) => c.target === 'Box.scale').length).toBeGreaterThanOrEqual(3);
    const prompt = renderPrompt({ unit, cases: all, libraryName: 'geo', methods: [unit, area] });
    expect(prompt).toContain('# Implement the methods of `Box` in `geo/shapes.py`');
    expect(prompt).toContain('has lost the bodies of 2 methods: `scale`, `area`.');
    expect(prompt).toContain('## `Box.scale`\n\n```python\ndef scale(self, factors, clamp=None):\n```\n\nScales the box by each factor in turn.');
    expect(prompt).toContain('## `Box.area`\n\n```python\ndef area(self):\n```\n\nThe area.');
    expect(prompt).toContain('>>> Box(2, 3).area()\n6');
    expect(prompt).toContain('>>> Box(2, 3).scale([1], clamp=1.5)\n(2, 3)');
  });
});

describe('the prompt of a module task (issue 19, part 1)', () => {
  it('names the module and every removed function, imports them all in one line, then each function\'s examples', async () => {
    const { renderPrompt } = await import('../../src/languages/python/render-prompt.js');
    const fn = (qualname: string, signature: string, docstring: string | null, startLine: number): Unit => ({
      ...unit, id: `geo.calc:${qualname}`, kind: 'function', module: 'geo.calc', file: 'geo/calc.py', qualname, signature, docstring, startLine, endLine: startLine + 2, bodyStartLine: startLine + 1, bodyEndLine: startLine + 2,
    });
    const double = fn('double', 'def double(x):', 'Twice x.', 1);
    const half = fn('half', 'def half(x):', null, 10);
    const call = (id: string, target: string, x: number, expect: RecordedCase['expect'], path: string): RecordedCase =>
      ({ id, module: 'geo.calc', target, init: null, args: [t('int', String(x))], kwargs: {}, expect, argsAfter: null, source: 'type-hint', path });
    const all = [
      call('d1', 'double', 2, { returns: t('int', '4') }, 'line 2'),
      call('h1', 'half', 8, { returns: t('int', '4') }, 'line 12'),
      call('h2', 'half', 0, { raises: 'ZeroDivisionError' }, 'line 11'),
    ];
    const prompt = renderPrompt({ unit: double, cases: all, libraryName: 'geo', methods: [double, half], shape: 'module' });
    expect(prompt).toContain('# Implement the functions of `geo.calc` in `geo/calc.py`');
    expect(prompt).toContain('(imported as `from geo.calc import double, half`) has lost the bodies of 2 functions: `double`, `half`.');
    expect(prompt).toContain('## `double`\n\n```python\ndef double(x):\n```\n\nTwice x.');
    expect(prompt).toContain('`half` has no documentation.');
    expect(prompt).toContain('>>> from geo.calc import double, half\n');
    expect(prompt).toContain('>>> double(2)\n4');
    expect(prompt).toContain('>>> half(8)\n4');
    expect(prompt).toContain('>>> half(0)\nTraceback (most recent call last):');
    // the class prompt is still the default for grouped methods
    expect(renderPrompt({ unit: double, cases: all, libraryName: 'geo', methods: [double, half] })).toContain('# Implement the methods of');
  });
});

describe('the method a case calls, for grouping a class task\'s examples', () => {
  it('reads it off the call outside any parentheses, not off the receiver or the arguments', async () => {
    const { methodOf } = await import('../../src/languages/python/render-prompt.js');
    const judged = (expr: string): RecordedCase => listOfExpression('j', expr, 'geo.shapes', { returns: t('list', [t('int', '1')]) });
    expect(methodOf(caseOf('p', 1, { returns: t('int', '1') }))).toBe('scale');
    expect(methodOf(judged('(geo.shapes.area(datetime.date(2020, 1, 2)) for _ in (0,))'))).toBe('area');
    expect(methodOf(judged("(_o.scale(d.f(1)) for _ in (0,) for _o in ((lambda _o: vars(_o).update({'w': 2}) or _o)(object.__new__(geo.shapes.Box)),))"))).toBe('scale');
  });
});
