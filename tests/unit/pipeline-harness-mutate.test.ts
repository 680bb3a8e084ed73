/**
 * mutate.py on hand-written cases of the fixture library: `<` vs `<=` and boundary-constant mutants
 * survive the doctest inputs and are killed by inputs the mutant-guided search finds.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURE, runHarness, runWithHarnessModule, target } from './pipeline-harness-helpers.js';

const int = (n: number): unknown => ({ t: 'int', v: String(n) });
const str = (s: string): unknown => ({ t: 'str', v: s });

function gradeCase(score: number, letter: string): unknown {
  return { id: `grade-${score}`, module: 'recfix.core', target: 'grade', init: null, args: [int(score)], kwargs: {}, expect: { returns: str(letter) }, argsAfter: null, source: 'doctest' };
}

/** mutate.py on one target's cases without the search, then with it: [before, after]. */
function withAndWithoutSearch(qualname: string, module: string, cases: unknown[]): [any, any] {
  const run = (search: boolean): any => runHarness('mutate.py', { search, targets: [target(qualname, module, { cases })] }).targets[0];
  return [run(false), run(true)];
}

describe('mutate.py', () => {
  it('kills comparison and boundary-constant mutants only after the mutant-guided search', () => {
    const cases = [gradeCase(95, 'A'), gradeCase(30, 'F')];
    const withoutSearch = runHarness('mutate.py', { search: false, targets: [target('grade', 'recfix.core', { cases })] }).targets[0];
    expect(withoutSearch.before.survivors).toEqual(expect.arrayContaining(['line 30: >= → >', 'line 30: 90 → 91', 'line 32: >= → >', 'line 32: 70 → 69']));
    expect(withoutSearch.newCases).toEqual([]);

    const t = runHarness('mutate.py', { targets: [target('grade', 'recfix.core', { cases })] }).targets[0];
    expect(t.error).toBeNull();
    expect(t.before.killed).toBe(withoutSearch.mutation.killed);
    expect(t.mutation.score).toBeGreaterThan(t.before.score);
    expect(t.mutation.survivors).not.toContain('line 30: >= → >');
    expect(t.mutation.survivors).not.toContain('line 30: 90 → 91');
    expect(t.newCases.length).toBeGreaterThan(0);
    expect(t.newCases.every((c: any) => c.source === 'mutant-search' && c.target === 'grade')).toBe(true);
    expect(t.newCases.map((c: any) => c.args[0].v)).toContain('90');
  }, 120_000);

  it("leaves out of the score the mutants in a branch this interpreter never takes (`if PY2:`), and runs none of them", () => {
    const textCase = (value: unknown, text: string): unknown => ({
      id: `as-text-${text}`, module: 'recfix.compat', target: 'as_text', init: null, args: [value], kwargs: {}, expect: { returns: str(text) }, argsAfter: null, source: 'doctest',
    });
    const cases = [textCase(int(7), '7'), textCase({ t: 'bytes', v: 'aGk=' }, 'hi')];
    const t = runHarness('mutate.py', { search: false, targets: [target('as_text', 'recfix.compat', { cases })] }).targets[0];
    const dead = t.mutation.survivors.filter((x: string) => x.startsWith('in a branch this interpreter never takes'));
    // the Python 2 branch spans lines 10-15; the test `PY2` itself (line 9) is live: flipping it changes every result
    expect(dead.length).toBeGreaterThan(3);
    expect(dead.every((x: string) => /line 1[0-5]:/.test(x))).toBe(true);
    expect(t.mutants.map((m: any) => m.line)).toEqual(expect.arrayContaining([9, 17, 18, 20]));
    expect(t.mutants.every((m: any) => m.line < 10 || m.line > 15)).toBe(true);
    expect(t.mutation.total).toBe(t.mutants.length);
  }, 120_000);

  it('counts a mutant that hangs as killed', () => {
    const cases = [{ id: 'c', module: 'recfix.core', target: 'count_below', init: null, args: [{ t: 'list', v: [int(1), int(5)] }, int(3)], kwargs: {}, expect: { returns: int(1) }, argsAfter: [{ t: 'list', v: [int(1), int(5)] }, int(3)], source: 'call-site' }];
    const t = runHarness('mutate.py', { search: false, targets: [target('count_below', 'recfix.core', { cases })] }).targets[0];
    expect(t.mutation.total).toBeGreaterThan(5);
    expect(t.mutation.killed).toBeGreaterThan(0);
    expect(t.baselineMismatches).toBe(0);
  }, 120_000);

  it('cuts a mutant that loops forever at its own per-case limit (timeout, killed), and stops a batch at the first case that differs', () => {
    const halving = (n: number, i: number): unknown => ({
      id: `h${i}`, module: 'recfix.loops', target: 'halve_steps', init: null, args: [int(n)], kwargs: {},
      expect: { returns: int(n <= 1 ? 0 : Math.floor(Math.log2(n))) }, argsAfter: null, source: 'doctest',
    });
    const cases = [1, 2, 7, 64].map(halving);
    const t = runHarness('mutate.py', { search: false, callTimeoutMs: 2000, targets: [target('halve_steps', 'recfix.loops', { cases })] }).targets[0];
    expect(t.error).toBeNull();
    const how = new Map(t.mutants.map((m: any) => [m.description, [m.killed, m.how]]));
    // `n // 1` never reaches 1: cut at the mutants' limit, not after the whole batch's
    expect(how.get('line 8: 2 → 1')).toEqual([true, 'timeout']);
    expect(how.get('line 7: > → >=')).toEqual([true, 'differs']);
    expect(t.mutation.score).toBe(1);
    expect(t.ms).toBeGreaterThan(0);
    // two targets at a time: each as it is alone
    const both = runHarness('mutate.py', { search: false, parallel: 2, callTimeoutMs: 2000, targets: [target('halve_steps', 'recfix.loops', { cases }), target('halve_steps', 'recfix.loops', { cases })] }).targets;
    expect(both.map((x: any) => x.mutants.map((m: any) => [m.description, m.killed]))).toEqual([0, 1].map(() => t.mutants.map((m: any) => [m.description, m.killed])));

    // the worker's batch: with `expected`, the outcomes end at the first case that differs; each has its `ms`
    const answer = runWithHarnessModule('common', [
      'import json, sys',
      `config = {"repoRoot": ${JSON.stringify(FIXTURE)}, "sysPath": [${JSON.stringify(FIXTURE)}], "callTimeoutMs": 2000}`,
      'w, drop = common.start_worker(config, {"module": "recfix.loops", "qualname": "halve_steps", "kind": "function"})',
      'cases = [{"args": [{"t": "int", "v": str(n)}], "kwargs": {}} for n in (2, 7, 64)]',
      'want = [common.codec.canonical({"returns": {"t": "int", "v": v}}) for v in ("1", "9", "6")]',
      'stopped = common.run_batch(w, cases, config, expected=want, with_args_after=[False] * 3)',
      'full = common.run_batch(w, cases, config, case_limits=[500] * 3)',
      'w.close()',
      'print(json.dumps({"stopped": stopped, "full": full}))',
    ], '');
    expect(answer.stopped.outcomes.map((o: any) => o.value.v)).toEqual(['1', '2']);
    expect(answer.full.outcomes.map((o: any) => o.value.v)).toEqual(['1', '2', '6']);
    expect(answer.full.outcomes.every((o: any) => typeof o.ms === 'number')).toBe(true);
  }, 120_000);

  it('never mutates what a task cannot judge: the arguments of a raised exception, a warnings.warn call', () => {
    const source = [
      'import warnings',
      'def checked(n):',
      '    if n < 0:',
      '        raise ValueError("n must be at least %d, got %r" % (0, n))',
      '    if n > 100:',
      '        warnings.warn("n is large: %d" % n, UserWarning)',
      '    return n * 2',
    ].join('\n');
    const descriptions: string[] = runWithHarnessModule('mutants', ['tree = ast.parse(sys.stdin.read())',
      'print(json.dumps([m["description"] for m in mutants.enumerate_mutants(tree.body[1])]))'], source);
    expect(descriptions).toEqual(expect.arrayContaining(['line 3: < → <=', 'line 3: 0 → 1', 'line 4: statement removed', 'line 5: 100 → 101', 'line 7: * → +']));
    expect(descriptions.filter((d) => d.startsWith('line 4: ') || d.startsWith('line 6: '))).toEqual(['line 4: statement removed']);
  });

  it('nor the assignments that only build an exception message (a name read only by the raise or by another such assignment)', () => {
    const source = [
      'def replaced(parts, known):',
      '    unknown = set(parts) - set(known)',
      '    if unknown:',
      '        missing = len(unknown)',
      '        error = "got %d unknown: %s" % (missing, ", ".join(sorted(unknown)))',
      '        raise TypeError(error)',
      '    return len(parts) + 1',
    ].join('\n');
    const descriptions: string[] = runWithHarnessModule('mutants', ['tree = ast.parse(sys.stdin.read())',
      'print(json.dumps([m["description"] for m in mutants.enumerate_mutants(tree.body[0])]))'], source);
    // `unknown` is read by the condition too: it stays; `missing` and `error` only feed the message
    expect(descriptions).toEqual(expect.arrayContaining(['line 2: - → +', 'line 2: statement removed', 'line 6: statement removed', 'line 7: + → -']));
    expect(descriptions.filter((d) => d.startsWith('line 4: ') || d.startsWith('line 5: '))).toEqual([]);
  });

  it('gives each mutant the lines of the statement holding it: a run covering none of them is not run on the mutant', () => {
    const source = [
      'def pick(n):',
      '    table = [',
      '        10,',
      '        20,',
      '    ]',
      '    if n > 1:',
      '        return table[1] + n',
      '    return table[0]',
    ].join('\n');
    const reach: Record<string, number[]> = runWithHarnessModule('mutants', ['tree = ast.parse(sys.stdin.read())',
      'print(json.dumps({m["description"]: m["reach"] for m in mutants.enumerate_mutants(tree.body[0])}))'], source);
    // a constant of a multi-line literal (no line event of its own): the whole assignment
    expect(reach['line 4: 20 → 21']).toEqual([2, 5]);
    // the condition: the whole `if` statement; its body's return: that line
    expect(reach['line 6: > → >=']).toEqual([6, 7]);
    expect(reach['line 7: + → -']).toEqual([7, 7]);

    // a mutant on the branch no case runs survives as it would if it ran; one on the branch a case runs is killed
    const picked = (n: number, value: number, i: number): unknown => ({
      id: `p${i}`, module: 'recfix.loops', target: 'pick', init: null, args: [int(n)], kwargs: {}, expect: { returns: int(value) }, argsAfter: null, source: 'doctest',
    });
    const t = runHarness('mutate.py', { search: false, targets: [target('pick', 'recfix.loops', { cases: [picked(0, 10, 0), picked(1, 10, 1)] })] }).targets[0];
    const how = new Map(t.mutants.map((m: any) => [m.description, m.killed]));
    expect(how.get('line 19: + → -')).toBe(false);
    expect(how.get('line 15: 10 → 11')).toBe(true);
  }, 120_000);

  it('splices structured parts of known strings into an input: a branch no recorded input reaches (groups in braces) is searched and its mutants killed', () => {
    // recfix.groups: the recorded lists hold no `{…}`; the module's "point = {x = 1}" does
    const listOf = (xs: string[]): unknown => ({ t: 'list', v: xs.map(str) });
    const c = (text: string, items: string[]): unknown => ({ id: `read-${text}`, module: 'recfix.groups', target: 'read_list', init: null, args: [str(text)], kwargs: {}, expect: { returns: listOf(items) }, argsAfter: null, source: 'doctest' });
    const cases = [c('[1, 2]', ['1', '2']), c('["a", "b"]', ['a', 'b']), c('[]', [])];
    const [before, t] = withAndWithoutSearch('read_list', 'recfix.groups', cases);
    expect(before.mutation.survivors).toEqual(expect.arrayContaining(["line 16: '{' → ''", "line 20: '}' → ''", 'line 21: - → +']));
    expect(t.error).toBeNull();
    const texts: string[] = t.newCases.map((x: any) => x.args[0].v);
    expect(texts.some((x) => /^\[\{x = 1\}, \{x = 1\}/.test(x))).toBe(true);
    expect(t.mutation.survivors.filter((x: string) => !x.startsWith('likely equivalent'))).toEqual([]);
    expect(t.mutation.score).toBe(1);
  }, 120_000);

  it('tries the bools an int equals (`True == 1`), and searches on from an input that went on to return where every recorded one raised', () => {
    // recfix.averages: no recorded input is a bool; the recorded inputs that reach the division all
    // raise there (a list holding a string, a dict whose keys are strings)
    const c = (target: string, value: unknown, expected: unknown): unknown => ({ id: `${target}-${JSON.stringify(value)}`, module: 'recfix.averages', target, init: null, args: [value], kwargs: {}, expect: expected, argsAfter: null, source: 'doctest' });
    const [numberBefore, number] = withAndWithoutSearch('is_number', 'recfix.averages', [c('is_number', int(1), { returns: { t: 'bool', v: true } }), c('is_number', str('a'), { returns: { t: 'bool', v: false } })]);
    expect(numberBefore.mutation.survivors).toContain('line 5: statement removed');
    expect(number.mutation.survivors.filter((x: string) => !x.startsWith('likely equivalent'))).toEqual([]);
    expect(number.newCases.some((x: any) => x.args[0].t === 'bool')).toBe(true);

    const list = (xs: unknown[]): unknown => ({ t: 'list', v: xs });
    const [meanBefore, mean] = withAndWithoutSearch('mean', 'recfix.averages', [
      c('mean', list([]), { returns: { t: 'none', v: null } }),
      c('mean', list([str('x')]), { raises: 'builtins.TypeError' }),
      c('mean', { t: 'dict', v: [[str('a'), int(4)]] }, { raises: 'builtins.TypeError' }),
    ]);
    expect(meanBefore.mutation.survivors).toContain('line 13: / → *');
    expect(mean.mutation.survivors).not.toContain('line 13: / → *');
    // a list of two or more numbers: one step from [4] (the dict's value put in the list), two from ['x']
    expect(mean.newCases.some((x: any) => x.args[0].t === 'list' && x.args[0].v.length >= 2 && x.args[0].v.every((v: any) => v.t === 'int' || v.t === 'float'))).toBe(true);
  }, 120_000);

  it("varies the literals of an argument built with the codebase's own class (`Span(0, 4)` → `Span(0, 5)`): the boundary between two spans is found", () => {
    const span = (start: number, stop: number): unknown => ({ t: 'repr', v: `recfix.spans.Span(${start}, ${stop})`, imports: ['recfix.spans'] });
    const c = (a: unknown, b: unknown, result: boolean): unknown => ({ id: `eb-${JSON.stringify([a, b])}`, module: 'recfix.ordering', target: 'ends_before', init: null, args: [a, b], kwargs: {}, expect: { returns: { t: 'bool', v: result } }, argsAfter: null, source: 'doctest' });
    const [before, t] = withAndWithoutSearch('ends_before', 'recfix.ordering', [c(span(0, 4), span(5, 8), true), c(span(0, 9), span(5, 8), false)]);
    expect(before.mutation.survivors).toContain('line 8: <= → <');
    expect(t.mutation.survivors).not.toContain('line 8: <= → <');
    // a found case: spans that meet (a's stop is b's start)
    const meets = t.newCases.filter((x: any) => {
      const [a, b] = x.args.map((arg: any) => /Span\((-?\d+), (-?\d+)\)/.exec(arg.v ?? ''));
      return a && b && a[2] === b[1];
    });
    expect(meets.length).toBeGreaterThan(0);
  }, 120_000);

  it("sets one field of a delimited string to a number or to a word of the body and a separator (`'title=bold'` → `'title=1'`, `'title=fg=bold'`): the branches a field's kind takes", () => {
    // recfix.styles: the recorded styles hold neither a size nor an `fg=`/`bg=` colour
    const dictOf = (pairs: [string, unknown][]): unknown => ({ t: 'dict', v: pairs.map(([k, v]) => [str(k), v]) });
    const yes = { t: 'bool', v: true };
    const c = (text: string, result: unknown): unknown => ({ id: `styles-${text}`, module: 'recfix.styles', target: 'parse_styles', init: null, args: [str(text)], kwargs: {}, expect: { returns: result }, argsAfter: null, source: 'doctest' });
    const cases = [
      c('title=bold;body=italic,underline', dictOf([['title', dictOf([['bold', yes]])], ['body', dictOf([['italic', yes], ['underline', yes]])]])),
      c('x=bold', dictOf([['x', dictOf([['bold', yes]])]])),
    ];
    const [before, t] = withAndWithoutSearch('parse_styles', 'recfix.styles', cases);
    expect(before.mutation.survivors).toEqual(expect.arrayContaining(["line 11: 'size' → ''", "line 14: 'fg' → ''", "line 14: 'bg' → ''"]));
    expect(t.mutation.survivors).not.toContain("line 11: 'size' → ''");
    expect(t.mutation.survivors).not.toContain("line 14: 'fg' → ''");
    expect(t.mutation.survivors).not.toContain("line 14: 'bg' → ''");
    const texts: string[] = t.newCases.map((x: any) => x.args[0].v);
    expect(texts.some((x) => /=\d+/.test(x))).toBe(true);
    expect(texts.some((x) => /=(fg|bg)=/.test(x))).toBe(true);
  }, 120_000);

  it('variations: the structured parts of a string, donors taking turns by kind, splices and quoted insertions', () => {
    const out = runWithHarnessModule('variations', [
      'print(json.dumps({',
      '  "segments": [list(s) for s in variations.segments(\'[1, {a = "x,y"}]\')],',
      '  "donors": variations.donors(["[ 1, 2 ]", "point = {x = 1}", "name = \'Tom\'"]),',
      '  "splices": variations.splices(\'["red", "blue"]\', ["{x = 1}"]),',
      '  "quoted": variations._quoted_insertions(\'["a", "b"]\', [",", "\\\\"]),',
      '}))',
    ], '');
    // the whole list, its items, the group and the quoted string (whose comma is no separator)
    expect(out.segments).toEqual([[0, 16], [1, 2], [4, 15], [9, 14]]);
    // one of each kind (no bracket, quote, [, {) before the second of any
    expect(out.donors.slice(0, 4).sort()).toEqual(["'Tom'", '1', '[ 1, 2 ]', '{x = 1}'].sort());
    expect(out.splices).toContain('[{x = 1}, {x = 1}]');
    expect(out.splices).toContain('["red", "red", "blue"]');
    expect(out.splices).toContain('["blue"]');
    expect(out.splices).toContain('[{x = 1}, "blue"]');
    expect(out.quoted).toEqual(['["a,", "b"]', '["a\\", "b"]', '["a", "b,"]', '["a", "b\\"]']);
  });

  it('varies nodes deep inside a container: a table wrapped in a list and given a table of its own reaches the branch for arrays of tables', () => {
    // recfix.tables: the recorded documents are one and two levels deep; the branch needs a list of tables holding a table
    const dict = (pairs: unknown[][]): unknown => ({ t: 'dict', v: pairs });
    const c = (doc: unknown): unknown => ({ id: `t-${JSON.stringify(doc)}`, module: 'recfix.tables', target: 'table_names', init: null, args: [doc], kwargs: {}, expect: { returns: { t: 'list', v: [] } }, argsAfter: null, source: 'doctest' });
    const cases = [c(dict([[str('a'), int(1)]])), c(dict([[str('a'), dict([[str('b'), int(1)], [str('c'), dict([[str('d'), int(2)]])]])]]))];
    const [before, t] = withAndWithoutSearch('table_names', 'recfix.tables', cases);
    expect(before.mutation.survivors).toEqual(expect.arrayContaining(['line 11: condition negated', 'line 12: statement removed']));
    expect(t.error).toBeNull();
    expect(t.mutation.survivors).not.toContain('line 11: condition negated');
    expect(t.mutation.survivors).not.toContain('line 12: statement removed');
    // a found document: a list of tables, one of which holds a table
    const found = t.newCases.map((x: any) => JSON.stringify(x.args[0]));
    expect(found.some((x: string) => /"t":"list","v":\[\{"t":"dict","v":\[.*"t":"dict"/.test(x))).toBe(true);
    expect(t.mutation.score).toBeGreaterThan(0.8);
  }, 120_000);

  it("variations: an argument set to a value of its kind the receiver's init holds (a key the mapping was built with)", () => {
    const out = runWithHarnessModule('variations', [
      'import random',
      'init = {"args": [{"t": "list", "v": [{"t": "tuple", "v": [{"t": "str", "v": "red"}, {"t": "int", "v": "1"}]}]}], "kwargs": {}}',
      'case = {"init": init, "args": [{"t": "str", "v": "zzz"}], "kwargs": {}}',
      'print(json.dumps(sorted({x["args"][0]["v"] for x in variations.neighbours(case, [], random.Random(1), 400)})))',
    ], '');
    expect(out).toContain('red');
    expect(out).not.toContain('1');
  });

  it('applies every mutant of every function of the fixture library as a fresh search of the copy would (the cached points)', () => {
    // the reference: the points found again on a deep copy, the mutant applied to the copy's own node
    const out = runWithHarnessModule('mutants', [
      'import copy, glob, os',
      'def fresh(fn, index):',
      '    clone = copy.deepcopy(fn)',
      '    node, _d, kind, apply = mutants._points(clone)[index]',
      '    if kind == "drop":',
      '        for parent in ast.walk(clone):',
      '            for field in mutants.STATEMENT_LISTS:',
      '                stmts = getattr(parent, field, None)',
      '                if isinstance(stmts, list):',
      '                    stmts[:] = [ast.copy_location(ast.Pass(), s) if s is node else s for s in stmts]',
      '    else:',
      '        apply(node)',
      '    clone.decorator_list = []',
      '    return ast.dump(ast.fix_missing_locations(clone))',
      'checked, differ = 0, []',
      `for path in sorted(glob.glob(os.path.join(${JSON.stringify(FIXTURE)}, "recfix", "*.py"))):`,
      '    tree = ast.parse(open(path).read())',
      '    for fn in [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]:',
      '        for index in range(len(mutants.enumerate_mutants(fn))):',
      '            checked += 1',
      '            if ast.dump(mutants.apply_mutant(fn, index)) != fresh(fn, index):',
      '                differ.append("%s:%s #%d" % (os.path.basename(path), fn.name, index))',
      'print(json.dumps({"checked": checked, "differ": differ}))',
    ], '');
    expect(out.differ).toEqual([]);
    expect(out.checked).toBeGreaterThan(500);
  });
});
