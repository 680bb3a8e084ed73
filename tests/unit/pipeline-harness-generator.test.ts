/**
 * Generators and likely-equivalent mutants in the record/mutate harness (tests/fixtures/record,
 * recfix/gens.py), run on the host with /usr/bin/python3: a generator is recorded on its first
 * items and its cases come back as `list(itertools.islice(gen(...), 100))`, which the scoring codec
 * evaluates to the recorded value; a survivor that behaves like the original on every input that
 * reached its line is left out of the score and named.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE, PYTHON, root, runHarness, target } from './pipeline-harness-helpers.js';

/** Evaluates a case's `repr` input with the scoring codec, as the subject does, and calls the target on it. */
function judgeLikeSubject(c: any): { returns?: unknown; raises?: string } {
  const script = `
import builtins, importlib, json, sys
sys.path.insert(0, ${JSON.stringify(join(root, 'src', 'languages', 'python', 'judge'))})
sys.path.insert(0, ${JSON.stringify(FIXTURE)})
import codec
case = json.loads(sys.stdin.read())
args = [codec.decode(a) for a in case["args"]]
fn = getattr(importlib.import_module(case["module"]), case["target"])
try:
    print(json.dumps({"returns": codec.encode(fn(*args))}))
except Exception as exc:
    print(json.dumps({"raises": type(exc).__module__ + "." + type(exc).__qualname__}))
`;
  const run = spawnSync(PYTHON, ['-I', '-c', script], { input: JSON.stringify(c), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout);
}

describe('generators', () => {
  it('records a generator on its first items and hands back cases the task judges with list(islice(...))', () => {
    const recorded = runHarness('record.py', {
      runRepoTests: false,
      targets: [
        target('windows', 'recfix.gens', { callSites: [{ argumentTexts: ['[1, 2, 3, 4]', '2'], allLiteral: true }, { argumentTexts: ['[1, 2]', '0'], allLiteral: true }] }),
        target('count_from', 'recfix.gens', { callSites: [{ argumentTexts: ['5'], allLiteral: true }] }),
      ],
    });
    const [windows, countFrom] = recorded.targets;
    expect(windows.drop).toBeNull();
    const site = windows.cases.find((c: any) => c.source === 'call-site' && c.args[1].v === '2');
    expect(site.expect.returns).toEqual({ t: 'list', v: [[1, 2], [2, 3], [3, 4]].map((w) => ({ t: 'tuple', v: w.map((n) => ({ t: 'int', v: String(n) })) })) });
    expect(windows.cases.some((c: any) => c.expect.raises === 'builtins.ValueError')).toBe(true);
    expect(countFrom.drop).toBeNull();
    const endless = countFrom.cases.find((c: any) => c.args[0]?.v === '5' && Object.keys(c.kwargs).length === 0);
    expect(endless.expect.returns.v).toHaveLength(100);

    const mutated = runHarness('mutate.py', { targets: [target('windows', 'recfix.gens', { cases: windows.cases })] }).targets[0];
    expect(mutated.error).toBeNull();
    expect(mutated.cases).toHaveLength(windows.cases.length);
    for (const c of [...mutated.cases, ...mutated.newCases]) {
      expect(c.module).toBe('builtins');
      expect(c.target).toBe('list');
      expect(c.argsAfter).toBeNull();
      expect(c.args[0].v).toMatch(/^itertools\.islice\(recfix\.gens\.windows\(.*\), 100\)$/);
      expect(judgeLikeSubject(c)).toEqual(c.expect);
    }
    expect(mutated.mutation.killed).toBeGreaterThan(0);
  }, 300_000);
});

describe('likely-equivalent mutants', () => {
  it('leaves out of the score a survivor that matched the original on every input reaching its line', () => {
    const int = (n: number): unknown => ({ t: 'int', v: String(n) });
    const cases = [-7, -1, 0, 1, 2, 3, 5, 8, 13, 21, 34].map((n) => ({
      id: `f${n}`, module: 'recfix.gens', target: 'floor_zero', init: null, args: [int(n)], kwargs: {},
      expect: { returns: int(Math.max(n, 0)) }, argsAfter: null, source: 'type-hint',
    }));
    const t = runHarness('mutate.py', { targets: [target('floor_zero', 'recfix.gens', { cases })] }).targets[0];
    expect(t.error).toBeNull();
    const equivalent = t.mutants.filter((m: any) => m.how === 'likely-equivalent');
    expect(equivalent.map((m: any) => m.description)).toContain('line 25: 0 → -1');
    expect(t.mutation.total).toBe(t.mutants.length - equivalent.length);
    expect(t.mutation.survivors).toContain('likely equivalent (not counted): line 25: 0 → -1');
    expect(t.mutation.score).toBe(1);
  }, 300_000);
});
