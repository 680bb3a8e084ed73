import { describe, expect, it } from 'vitest';
import { classRecordings, MAX_CLASS_METHODS, moduleRecordings } from '../../src/pipeline/record/record-candidates.js';
import type { Recording, Unit } from '../../src/pipeline/types.js';
import { makeUnit } from '../fixtures/units.js';

const method = (qualname: string, startLine: number): Unit =>
  makeUnit({ id: `pkg.mod:${qualname}`, kind: 'method', module: 'pkg.mod', qualname, file: 'pkg/mod.py', startLine, endLine: startLine + 3 });
const recordingOf = (u: Unit, killed: number, total = 10, extra: Partial<Recording> = {}): Recording => ({
  unitId: u.id,
  cases: [{ id: `${u.qualname}-1`, module: u.module, target: u.qualname, init: { args: [], kwargs: {} }, args: [], kwargs: {}, expect: { returns: { t: 'int', v: '1' } }, argsAfter: null, source: 'type-hint' }],
  mutation: { total, killed, score: killed / total, survivors: killed < total ? [`line ${u.startLine}: + → -`] : [] },
  sources: { 'type-hint': { tried: 3, kept: 1 } },
  rejected: {},
  ...extra,
});

describe('class recordings: the methods of a class recorded on their own, removed together', () => {
  const push = method('Stack.push', 10);
  const pop = method('Stack.pop', 20);
  const peek = method('Stack.peek', 30);
  const weak = method('Stack.clear', 40);
  const lone = method('Queue.put', 50);

  it('joins every passing method of a class into one recording: all their cases, their mutants summed', () => {
    const recordings = [recordingOf(pop, 9), recordingOf(push, 10), recordingOf(peek, 8), recordingOf(weak, 2), recordingOf(lone, 10)];
    const [stack, ...rest] = classRecordings(recordings, [push, pop, peek, weak, lone], 0.8);
    expect(rest).toEqual([]);
    expect(stack).toMatchObject({
      unitId: 'pkg.mod:Stack#class',
      // in the order of the class's source; Stack.clear is below the threshold, Queue has one method
      feature: { entry: 'pkg.mod:Stack.push', helpers: ['pkg.mod:Stack.pop', 'pkg.mod:Stack.peek'], shape: 'class' },
      mutation: { total: 30, killed: 27, score: 0.9 },
      sources: { 'type-hint': { tried: 9, kept: 3 } },
    });
    expect(stack!.cases.map((c) => c.target)).toEqual(['Stack.push', 'Stack.pop', 'Stack.peek']);
  });

  it('leaves out methods recorded through an entry, feature recordings and classes past the method limit', () => {
    const via = recordingOf(pop, 10, 10, { via: { id: 'pkg.mod:run' } as never });
    expect(classRecordings([recordingOf(push, 10), via], [push, pop], 0.8)).toEqual([]);
    const many = Array.from({ length: MAX_CLASS_METHODS + 1 }, (_, k) => method(`Big.m${k}`, 100 + 10 * k));
    expect(classRecordings(many.map((u) => recordingOf(u, 10)), many, 0.8)).toEqual([]);
  });
});

describe('module recordings: the functions of a small module recorded on their own, removed together', () => {
  const fn = (module: string, qualname: string, startLine: number): Unit =>
    makeUnit({ id: `${module}:${qualname}`, kind: 'function', module, qualname, file: `${module.replace('.', '/')}.py`, startLine, endLine: startLine + 3 });
  const parse = fn('pkg.dates', 'parse', 30);
  const zone = fn('pkg.dates', 'parse_zone', 10);
  const weak = fn('pkg.dates', 'guess', 50);
  const lone = fn('pkg.other', 'only', 5);
  const push = method('Stack.push', 10);
  const pop = method('Stack.pop', 20);

  it("joins a module's passing functions (not its methods) into one recording, in source order", () => {
    const recordings = [recordingOf(parse, 9), recordingOf(zone, 10), recordingOf(weak, 1), recordingOf(lone, 10), recordingOf(push, 10), recordingOf(pop, 10)];
    const modules = moduleRecordings(recordings, [parse, zone, weak, lone, push, pop], 0.8);
    expect(modules).toHaveLength(1);
    expect(modules[0]).toMatchObject({
      unitId: 'pkg.dates#module',
      feature: { entry: 'pkg.dates:parse_zone', helpers: ['pkg.dates:parse'], shape: 'module' },
      mutation: { total: 20, killed: 19 },
    });
    expect(modules[0]!.cases.map((c) => c.target)).toEqual(['parse_zone', 'parse']);
  });

  it('makes none of a module past the limit, nor of functions recorded through an entry', () => {
    const many = Array.from({ length: MAX_CLASS_METHODS + 1 }, (_, k) => fn('pkg.big', `f${k}`, 10 * k));
    expect(moduleRecordings(many.map((u) => recordingOf(u, 10)), many, 0.8)).toEqual([]);
    const via = recordingOf(parse, 10, 10, { via: { id: 'pkg.dates:run' } as never });
    expect(moduleRecordings([recordingOf(zone, 10), via], [parse, zone], 0.8)).toEqual([]);
  });
});
