import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePythonUnits } from '../../src/languages/python/parse-python-units.js';
import { ingestRepository } from '../../src/pipeline/ingest/ingest-repository.js';
import { selectCandidates } from '../../src/pipeline/select/select-candidates.js';
import { seededShuffle } from '../../src/pipeline/select/seeded-order.js';
import type { Unit } from '../../src/pipeline/types.js';
import { makeUnit } from '../fixtures/units.js';
import { createJavaScriptPlugin } from '../../src/languages/javascript/javascript-plugin.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'pipeline');
let workRoot: string;
let units: Unit[];

beforeAll(async () => {
  workRoot = mkdtempSync(join(tmpdir(), 'cm-select-'));
  units = (await parsePythonUnits(await ingestRepository(join(FIXTURES, 'pylib'), { workRoot }))).units;
});
afterAll(() => rmSync(workRoot, { recursive: true, force: true }));

/** A substantive, pure module-level function; tests change one thing at a time. */

describe('selectCandidates on the fixture package', () => {
  it('keeps the substantive, pure functions, generators and methods, private ones included', () => {
    const { candidates } = selectCandidates(units);
    expect(candidates.map((c) => c.unit.id)).toEqual([
      'shapekit.geometry:clamp',
      'shapekit.geometry:pairs',
      'shapekit.geometry:Grid.neighbours',
      'shapekit.geometry:Grid.count',
      'shapekit.geometry:Grid._hidden',
    ]);
    const pairs = candidates.find((c) => c.unit.id === 'shapekit.geometry:pairs');
    expect(pairs?.reasons).toContain('generator: judged on list(itertools.islice(result, 100))');
    const hidden = candidates.find((c) => c.unit.id === 'shapekit.geometry:Grid._hidden');
    expect(hidden?.reasons).toContain("private: '_hidden' has a leading underscore; reachable as a module attribute all the same");
  });

  it('drops private units when asked to', () => {
    const { drops } = selectCandidates(units, { includePrivate: false });
    expect(drops.find((d) => d.unitId === 'shapekit.geometry:Grid._hidden')?.code).toBe('private');
  });

  it('records why it kept each candidate', () => {
    const clamp = selectCandidates(units).candidates[0];
    expect(clamp?.reasons).toEqual([
      'substance: 5 statements (at least 3)',
      'interface: public module-level function',
      'pure: no clock, randomness, environment, network, filesystem, process, stream or global-state use detected',
      'size: 5 lines of code (at most 120)',
      'inputs: 6 call sites, 3 with literal arguments',
      'spec: has a docstring',
    ]);
    const neighbours = selectCandidates(units).candidates.find((c) => c.unit.id === 'shapekit.geometry:Grid.neighbours');
    expect(neighbours?.reasons[1]).toBe('interface: method of public class Grid (constructor takes 1 required arguments; 1 constructor call sites)');
  });

  it('drops every other unit with a stable code and a reason', () => {
    const { drops } = selectCandidates(units);
    expect(drops.map((d) => [d.unitId, d.code])).toEqual([
      ['shapekit.geometry:clamp_unit', 'wrapper'],
      ['shapekit.geometry:total', 'async'],
      ['shapekit.geometry:stamp', 'impure:clock'],
      ['shapekit.geometry:created', 'impure:clock'],
      ['shapekit.geometry:roll', 'impure:random'],
      ['shapekit.geometry:bump', 'impure:global'],
      ['shapekit.geometry:spread', 'varargs-only'],
      ['shapekit.geometry:Grid', 'class'],
      ['shapekit.geometry:Grid.__init__', 'too-small'],
      ['shapekit.geometry:Grid.size', 'too-small'],
      ['shapekit.geometry:Grid.get_width', 'accessor'],
    ]);
    expect(drops.every((d) => d.stage === 'select' && d.reason.length > 0)).toBe(true);
    expect(drops.find((d) => d.code === 'impure:clock')?.reason).toBe('depends on the world outside its arguments: clock:time.time');
    expect(drops.find((d) => d.code === 'wrapper')?.reason).toBe('a one-statement wrapper around clamp');
    expect(drops.find((d) => d.code === 'varargs-only')?.reason).toBe('takes only *args, **kwargs: no interface to describe');
  });
});

describe('selectCandidates rules', () => {
  const codeOf = (unit: Unit, options = {}): string | undefined => selectCandidates([unit], options).drops[0]?.code;

  it('applies the statement and line bounds, with options', () => {
    expect(codeOf(makeUnit({ statementCount: 2 }))).toBe('too-small');
    expect(codeOf(makeUnit({ statementCount: 3 }))).toBeUndefined();
    expect(codeOf(makeUnit({ statementCount: 3 }), { minStatements: 4 })).toBe('too-small');
    expect(codeOf(makeUnit({ codeLines: 120 }))).toBeUndefined();
    expect(codeOf(makeUnit({ codeLines: 121 }))).toBe('too-large');
    expect(codeOf(makeUnit({ codeLines: 121 }), { maxLines: 200 })).toBeUndefined();
    // the size is code: a long definition of comments and docstring is not too large
    expect(codeOf(makeUnit({ endLine: 300, codeLines: 40 }))).toBeUndefined();
  });

  it('keeps a variadic-only function whose parameter names or docstring examples say what it takes', () => {
    const variadic = (name: string, kind: 'var-positional' | 'var-keyword') => ({ name, kind, annotation: null, defaultValue: null });
    const forwarding = makeUnit({ params: [variadic('args', 'var-positional'), variadic('kwargs', 'var-keyword')] });
    expect(codeOf(forwarding)).toBe('varargs-only');
    expect(codeOf({ ...forwarding, docstring: 'Adds.\n\n    >>> work(1, 2)\n    3' })).toBeUndefined();
    const merge = selectCandidates([makeUnit({ params: [variadic('dicts', 'var-positional'), variadic('kwargs', 'var-keyword')] })]).candidates[0];
    expect(merge?.reasons).toContain("variadic: only *dicts, **kwargs; inputs from the parameter names and the docstring's examples");
    expect(codeOf(makeUnit({ params: [variadic('parts', 'var-keyword')] }))).toBeUndefined();
    // a constructor taking only *args (`numeric_range(*args)`) is built from small ints, like range
    const self = { name: 'self', kind: 'positional' as const, annotation: null, defaultValue: null };
    const span = makeUnit({ qualname: 'Span', kind: 'class', signature: 'class Span:', params: [] });
    const rangeInit = makeUnit({ qualname: 'Span.__init__', kind: 'method', params: [self, variadic('args', 'var-positional')] });
    expect(selectCandidates([span, rangeInit]).candidates.map((c) => c.unit.qualname)).toEqual(['Span.__init__']);
    const forwardingInit = { ...rangeInit, params: [self, variadic('args', 'var-positional'), variadic('kwargs', 'var-keyword')] };
    expect(selectCandidates([span, forwardingInit]).drops.map((d) => d.code)).toEqual(['class', 'varargs-only']);
  });

  it("keeps a property's getter (judged on the attribute of a built instance), not its setter or deleter", () => {
    const getter = makeUnit({ qualname: 'Box.area', kind: 'method', decorators: ['property'], params: [{ name: 'self', kind: 'positional', annotation: null, defaultValue: null }] });
    const cls = makeUnit({ qualname: 'Box', kind: 'class', signature: 'class Box:', params: [] });
    expect(selectCandidates([cls, getter, { ...getter, decorators: ['functools.cached_property'] }]).candidates).toHaveLength(2);
    expect(selectCandidates([cls, { ...getter, decorators: ['area.setter'] }]).drops.map((d) => d.code)).toEqual(['class', 'property']);
    expect(selectCandidates([cls, { ...getter, decorators: ['area.deleter'] }]).drops.map((d) => d.code)).toEqual(['class', 'property']);
  });

  it('drops tests, unjudgeable dunders, private names when asked, and abstract methods', () => {
    expect(codeOf(makeUnit({ qualname: 'test_work' }))).toBe('test');
    expect(codeOf(makeUnit({ qualname: 'TestWork.check', kind: 'method' }))).toBe('test');
    const self = [{ name: 'self', kind: 'positional' as const, annotation: null, defaultValue: null }];
    const suiteClass = makeUnit({ qualname: 'TestSuite', kind: 'class', signature: 'class TestSuite(object):', params: [] });
    const unittestClass = makeUnit({ qualname: 'TestParse', kind: 'class', signature: 'class TestParse(unittest.TestCase):', params: [] });
    const xmlMethod = (owner: string): Unit => makeUnit({ qualname: `${owner}.to_xml_string`, kind: 'method', params: self });
    // junit-xml's library classes are named TestCase and TestSuite; a class deriving from a test base is a test
    expect(selectCandidates([suiteClass, xmlMethod('TestSuite')]).candidates.map((c) => c.unit.qualname)).toEqual(['TestSuite.to_xml_string']);
    expect(selectCandidates([unittestClass, xmlMethod('TestParse')]).drops.map((d) => d.code)).toEqual(['class', 'test']);
    expect(codeOf(makeUnit({ qualname: '__work__' }))).toBe('dunder');
    expect(codeOf(makeUnit({ qualname: '_work' }))).toBeUndefined();
    expect(codeOf(makeUnit({ qualname: '_work' }), { includePrivate: false })).toBe('private');
    const cls = makeUnit({ qualname: 'Box', kind: 'class', signature: 'class Box:', params: [] });
    const dunder = (name: string): Unit =>
      makeUnit({ qualname: `Box.${name}`, kind: 'method', params: [{ name: 'self', kind: 'positional', annotation: null, defaultValue: null }] });
    expect(selectCandidates([cls, dunder('__eq__'), dunder('__getitem__')]).candidates.map((c) => c.unit.qualname)).toEqual(['Box.__eq__', 'Box.__getitem__']);
    expect(selectCandidates([cls, dunder('__new__'), dunder('__setitem__'), dunder('__get__')]).drops.map((d) => d.code)).toEqual(['class', 'dunder', 'dunder', 'dunder']);
    // a hash is judged like any result (the recorder drops one that varies with the hash seed)
    expect(selectCandidates([cls, dunder('__hash__')]).candidates.map((c) => c.unit.qualname)).toEqual(['Box.__hash__']);
    // a constructor is judged by the state it leaves
    expect(selectCandidates([cls, dunder('__init__')]).candidates.map((c) => c.unit.qualname)).toEqual(['Box.__init__']);
    const owner = makeUnit({ qualname: 'Base', kind: 'class', signature: 'class Base(ABC):', params: [] });
    const method = makeUnit({ qualname: 'Base.run', kind: 'method', params: [{ name: 'self', kind: 'positional', annotation: null, defaultValue: null }] });
    expect(selectCandidates([owner, method]).drops.map((d) => d.code)).toEqual(['class', 'abstract-class']);
    const concrete = { ...owner, signature: 'class Base:' };
    expect(selectCandidates([concrete, { ...method, decorators: ['abc.abstractmethod'] }]).drops.map((d) => d.code)).toEqual(['class', 'abstract']);
    expect(selectCandidates([concrete, method]).candidates.map((c) => c.unit.id)).toEqual(['m:Base.run']);
    expect(codeOf(method)).toBe('no-class');
  });

  it('reports the first impurity kind in the code and all of them in the reason', () => {
    const drop = selectCandidates([makeUnit({ impurities: ['network:socket.socket', 'io:print'] })]).drops[0];
    expect(drop).toEqual({
      unitId: 'm:work',
      stage: 'select',
      code: 'impure:network',
      reason: 'depends on the world outside its arguments: network:socket.socket, io:print',
    });
  });

  it('cuts to maxCandidates with a seeded pick: the same seed gives the same candidates, in file/line order', () => {
    const many = Array.from({ length: 20 }, (_, i) => makeUnit({ qualname: `f${i}`, startLine: 10 * i + 1, endLine: 10 * i + 6 }));
    const a = selectCandidates(many, { maxCandidates: 5, seed: 42 });
    const b = selectCandidates([...many].reverse(), { maxCandidates: 5, seed: '42' });
    expect(a.candidates.map((c) => c.unit.id)).toEqual(b.candidates.map((c) => c.unit.id));
    expect(a.candidates).toHaveLength(5);
    const lines = a.candidates.map((c) => c.unit.startLine);
    expect(lines).toEqual([...lines].sort((x, y) => x - y));
    expect(a.drops).toHaveLength(15);
    expect(a.drops.every((d) => d.code === 'over-limit')).toBe(true);
    expect(a.drops[0]?.reason).toBe('not among the 5 candidates picked with seed 42 from 20');
    const picks = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5]) picks.add(selectCandidates(many, { maxCandidates: 5, seed }).candidates.map((c) => c.unit.id).join());
    expect(picks.size).toBeGreaterThan(1);
    expect(selectCandidates(many, { maxCandidates: 20 }).drops).toEqual([]);
  });

  it('shuffles reproducibly', () => {
    expect(seededShuffle([1, 2, 3, 4, 5, 6, 7, 8], 'x')).toEqual(seededShuffle([1, 2, 3, 4, 5, 6, 7, 8], 'x'));
    expect([...seededShuffle([1, 2, 3, 4, 5, 6, 7, 8], 'x')].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe("selectCandidates with a language's selection hints", () => {
  const jsHints = createJavaScriptPlugin().selection;
  const asyncFn = makeUnit({ id: 'src/net:fetchAll', module: 'src/net', qualname: 'fetchAll', file: 'src/net.js', isAsync: true, statementCount: 4, codeLines: 4 });
  const owner = makeUnit({ id: 'src/shapes:Rect', kind: 'class', module: 'src/shapes', qualname: 'Rect', file: 'src/shapes.js', signature: 'export class Rect', params: [{ name: 'w', kind: 'positional', annotation: null, defaultValue: null }] });
  const staticMethod = makeUnit({ id: 'src/shapes:Rect.square', kind: 'method', module: 'src/shapes', qualname: 'Rect.square', file: 'src/shapes.js', decorators: ['static'], statementCount: 3, codeLines: 3 });
  const method = makeUnit({ id: 'src/shapes:Rect.scale', kind: 'method', module: 'src/shapes', qualname: 'Rect.scale', file: 'src/shapes.js', statementCount: 3, codeLines: 3 });

  it('keeps async units only where the harness settles them (JavaScript), and drops them by default (Python)', () => {
    expect(selectCandidates([asyncFn]).drops.map((d) => d.code)).toEqual(['async']);
    expect(selectCandidates([asyncFn], jsHints).candidates.map((c) => c.unit.id)).toEqual(['src/net:fetchAll']);
  });

  it("reads JavaScript's static marker, and a constructor's parameters without a receiver", () => {
    const { candidates } = selectCandidates([owner, staticMethod, method], jsHints);
    const reasons = new Map(candidates.map((c) => [c.unit.id, c.reasons] as const));
    expect(reasons.get('src/shapes:Rect.square')).toContain('interface: static method of public class Rect');
    expect(reasons.get('src/shapes:Rect.scale')).toContain('interface: method of public class Rect (constructor takes 1 required arguments)');
  });
});
