import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCase, RepoSnapshot, Unit } from '../../src/languages/construction-types.js';
import { goDependencyRules } from '../../src/languages/go/go-dependencies.js';
import { goLeakRules } from '../../src/languages/go/go-leaks.js';
import { goRepoTests } from '../../src/languages/go/go-repo-tests.js';
import { goValueText } from '../../src/languages/go/go-values.js';
import { goCall, goWriter } from '../../src/languages/go/go-writer.js';
import { createGoParser, loadGoGrammar } from '../../src/languages/go/go-grammar.js';
import { importedName, maskGoBody, MASKED_GO_STATEMENT } from '../../src/languages/go/mask-go-body.js';
import { goInputs, goLiteralsOf, structLiterals } from '../../src/languages/go/go-inputs.js';
import { isGoSourceFile, parseGoUnits } from '../../src/languages/go/parse-go-units.js';
import { MaskBodyError } from '../../src/languages/language-adapter.js';
import { projectRoot } from '../../src/project-root.js';

const GOKIT = join(projectRoot(), 'examples/gokit');

function snapshotOf(dir: string): RepoSnapshot {
  const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [relative(dir, join(d, n))]));
  return { dir, origin: dir, revision: 'working-tree', files: walk(dir).sort() };
}

let units: Unit[];
const unit = (id: string): Unit => {
  const found = units.find((u) => u.id === id);
  if (found === undefined) throw new Error(`no unit ${id}`);
  return found;
};

beforeAll(async () => {
  await loadGoGrammar();
  const parsed = await parseGoUnits(snapshotOf(GOKIT));
  expect(parsed.problems).toEqual([]);
  units = parsed.units;
});

describe('Go units (issue 20)', () => {
  it('finds every function and method with a body in the package sources, tests left out, and the struct types', () => {
    expect(units.map((u) => `${u.id} ${u.kind}`)).toEqual([
      'geom:Point class',
      'geom:Point.Norm method',
      'geom:Point.Scale method',
      'geom:Pair class',
      'geom:Pair.Swap method',
      'geom:Midpoint function',
      'ledger:Ledger class',
      'ledger:NewLedger function',
      'ledger:Ledger.Apply method',
      'ledger:Ledger.Headroom method',
      'ledger:ParseCents function',
      'textutil:Reverse function',
      'textutil:WordCount function',
      'textutil:Slugify function',
      'textutil:splitWords function',
      'textutil:flush function',
    ]);
    expect(isGoSourceFile('textutil/words_test.go')).toBe(false);
    expect(isGoSourceFile('vendor/x/y.go')).toBe(false);
    expect(isGoSourceFile('internal/z.go')).toBe(true);
  });

  it('records visibility, receivers, the doc comment, the signature, parameters and results', () => {
    expect(unit('geom:Point.Scale').decorators).toEqual(['exported', 'receiver:*Point']);
    expect(unit('geom:Pair.Swap').decorators).toEqual(['exported', 'receiver:Pair[K, V]']);
    expect(unit('textutil:splitWords').decorators).toEqual(['unexported']);
    const reverse = unit('textutil:Reverse');
    expect(reverse.docstring).toBe('Reverse returns s with its runes in reverse order, or ErrEmpty for "".');
    expect(reverse.signature).toBe('func Reverse(s string) (string, error)');
    expect(reverse.params).toEqual([{ name: 's', kind: 'positional', annotation: 'string', defaultValue: null }]);
    expect(reverse.returnAnnotation).toBe('(string, error)');
    expect(unit('geom:Midpoint').params.map((p) => `${p.name} ${p.annotation}`)).toEqual(['a Point', 'b Point']);
    expect(unit('textutil:WordCount').docstring).toBe('WordCount counts each word of text, split on runs of spaces, in lower case.\nAn empty text gives an empty map.');
    expect(unit('textutil:flush').docstring).toBeNull();
    // a struct type: its fields as parameters, its type parameters as decorators
    expect(unit('geom:Point').params.map((p) => `${p.name} ${p.annotation}`)).toEqual(['X float64', 'Y float64']);
    expect(unit('geom:Pair').decorators).toEqual(['exported', 'typeparam:K', 'typeparam:V']);
  });

  it('gives the lines of the body, its statements and calls, and call sites from the tests too', () => {
    const slugify = unit('textutil:Slugify');
    expect([slugify.bodyStartLine, slugify.bodyEndLine, slugify.statementCount]).toEqual([22, 26, 4]);
    expect(slugify.calls).toEqual(['splitWords', 'len', 'strings.Join']);
    expect(slugify.callSites).toEqual([{ file: 'textutil/words_test.go', line: 6, caller: 'TestSlugify', argumentTexts: ['"Hello, World!"'], allLiteral: true }]);
    expect(unit('textutil:flush').callSites.map((s) => s.caller)).toEqual(['splitWords', 'splitWords']);
    // a one-line body: its statement is on the signature's line
    const swap = unit('geom:Pair.Swap');
    expect([swap.startLine, swap.bodyStartLine, swap.bodyEndLine]).toEqual([35, 35, 35]);
  });

  it('names the world outside the arguments a body reaches, and reports a file that does not parse', async () => {
    expect(units.every((u) => u.impurities.length === 0)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'cm-go-'));
    try {
      mkdirSync(join(dir, 'clock'));
      writeFileSync(join(dir, 'clock/clock.go'), 'package clock\n\nimport (\n\t"math/rand"\n\t"time"\n)\n\nfunc Stamp() int64 {\n\treturn time.Now().Unix() + rand.Int63()\n}\n\nfunc Pure(a int) int {\n\treturn a * 2\n}\n');
      writeFileSync(join(dir, 'clock/broken.go'), 'package clock\n\nfunc Broken( {\n');
      // a file with a syntax error to the grammar keeps the units outside it (the compiler decides what compiles)
      writeFileSync(join(dir, 'clock/partly.go'), 'package clock\n\nfunc Kept(a int) int {\n\treturn a + 1\n}\n\nfunc Lost(a int) int {\n\treturn (a + 1\n}\n');
      const parsed = await parseGoUnits(snapshotOf(dir));
      expect(parsed.units.filter((u) => u.kind !== 'class').map((u) => [u.qualname, u.impurities])).toEqual([['Stamp', ['clock:time.Now', 'random:rand.Int63']], ['Pure', []], ['Kept', []]]);
      expect(parsed.problems).toEqual([
        { file: 'clock/broken.go', code: 'syntax-error', message: 'clock/broken.go: a syntax error at line 3 (to this parser); 0 units elsewhere in the file kept' },
        { file: 'clock/partly.go', code: 'syntax-error', message: 'clock/partly.go: a syntax error at line 8 (to this parser); 1 units elsewhere in the file kept, 1 holding it dropped' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Go body masking (issue 20)', () => {
  const mask = (id: string): string => {
    const u = unit(id);
    return maskGoBody(readFileSync(join(GOKIT, u.file), 'utf8'), u);
  };
  const parses = (source: string): boolean => {
    const parser = createGoParser();
    const tree = parser.parse(source)!;
    const ok = !tree.rootNode.hasError;
    tree.delete();
    parser.delete();
    return ok;
  };

  it('replaces the body with a panic, keeping the doc comment and the signature, and leaves the rest', () => {
    const masked = mask('geom:Point.Scale');
    expect(masked).toContain(`// Scale multiplies both coordinates by k, in place; it panics for a negative k.\nfunc (p *Point) Scale(k float64) {\n\t${MASKED_GO_STATEMENT}\n}`);
    expect(masked).not.toContain('p.X *= k');
    expect(masked).toContain('return math.Hypot(p.X, p.Y)');
    expect(parses(masked)).toBe(true);
  });

  it('makes an import the file no longer uses blank, so the package still compiles', () => {
    // fmt was used only by Scale, math only by Norm
    expect(mask('geom:Point.Scale')).toContain('import (\n\t_ "fmt"\n\t"math"\n)');
    expect(mask('geom:Point.Norm')).toContain('import (\n\t"fmt"\n\t_ "math"\n)');
    // strings is still used by WordCount when Slugify is masked
    expect(mask('textutil:Slugify')).toContain('\t"strings"\n');
    expect(mask('textutil:Reverse')).toContain('import "errors"');
    expect(importedName('gopkg.in/yaml.v3')).toBe('yaml');
    expect(importedName('github.com/google/go-cmp/cmp')).toBe('cmp');
    expect(importedName('example.com/lib/v2')).toBe('lib');
  });

  it('masks a one-line body as well, and every unit of the sample into a file that parses', () => {
    expect(mask('geom:Pair.Swap')).toContain(`func (p Pair[K, V]) Swap() Pair[V, K] {\n\t${MASKED_GO_STATEMENT}\n}`);
    for (const u of units.filter((x) => x.kind !== 'class')) expect(parses(mask(u.id)), u.id).toBe(true);
  });

  it('refuses a unit whose function is not in the file', () => {
    const u = { ...unit('textutil:Slugify'), bodyStartLine: 3 };
    expect(() => maskGoBody(readFileSync(join(GOKIT, u.file), 'utf8'), u)).toThrow(MaskBodyError);
  });
});

describe('Go inputs (issue 20)', () => {
  const structs = (): Map<string, Unit> => new Map(units.filter((u) => u.kind === 'class' && u.module === 'geom').map((u) => [u.qualname, u] as const));

  it('writes literals of each type: numbers, strings, slices and maps from their elements, structs from their fields, the zero value otherwise', () => {
    expect(goLiteralsOf('int', new Map()).slice(0, 3)).toEqual(['0', '1', '-1']);
    expect(goLiteralsOf('int64', new Map())[2]).toBe('int64(-1)');
    expect(goLiteralsOf('[]string', new Map()).slice(0, 3)).toEqual(['nil', '[]string{}', '[]string{"a"}']);
    expect(goLiteralsOf('map[string]int', new Map())).toEqual(['nil', 'map[string]int{}', 'map[string]int{"a": 1}', 'map[string]int{"a": 1, "abc": -1}']);
    // a named type: its zero value, then conversions (the compiler drops those its underlying type refuses)
    expect(goLiteralsOf('Celsius', new Map())).toEqual(['*new(Celsius)', 'Celsius(1)', 'Celsius(2)', 'Celsius(7)', 'Celsius(100)', 'Celsius(-1)', 'Celsius("a")', 'Celsius("abc")']);
    expect(goLiteralsOf('time.Duration', new Map())).toContain('time.Duration(3600000000000)');
    expect(goLiteralsOf('func(int) int', new Map())).toEqual(['*new(func(int) int)']);
    expect(structLiterals('Point', structs())).toEqual(['Point{}', 'Point{X: 1, Y: 1}', 'Point{X: 1.5, Y: -2.25}', 'Point{X: -2.25, Y: 100}']);
    expect(goLiteralsOf('*Point', structs()).slice(0, 2)).toEqual(['nil', '&Point{}']);
    // a generic struct with its type parameters as int
    expect(structLiterals('Pair', structs())[1]).toBe('Pair[int, int]{Key: 1, Value: 1}');
  });

  it('takes the repository\'s literal calls first, then varies one parameter at a time, the same for the same seed', () => {
    const slugify = unit('textutil:Slugify');
    const inputs = goInputs(slugify, new Map(), 3, 20);
    expect(inputs[0]).toEqual({ args: ['"Hello, World!"'], source: 'repo-test' });
    expect(inputs.slice(1, 3)).toEqual([{ args: ['""'], source: 'type-hint' }, { args: ['"a"'], source: 'type-hint' }]);
    expect(goInputs(slugify, new Map(), 3, 20)).toEqual(inputs);
    const midpoint = goInputs(unit('geom:Midpoint'), structs(), 1, 12);
    expect(midpoint).toHaveLength(12);
    expect(new Set(midpoint.map((i) => JSON.stringify(i.args))).size).toBe(12);
  });
});


describe('the Go plugin\'s writer, repository tests, leak rules and dependencies (issue 20)', () => {
  const results = (...v: unknown[]): RecordedCase['expect'] => ({ returns: { t: 'results', v } });
  const str = (v: string) => ({ t: 'string', type: 'string', v });
  const reverseCase = (id: string, arg: string, expect: RecordedCase['expect'], source = 'type-hint'): RecordedCase => ({
    id, module: 'textutil', target: 'Reverse', init: null, args: [{ t: 'go', v: arg, type: 'string' }], kwargs: {}, expect, argsAfter: null, source,
  });

  it('writes a method call on a composite literal through its pointer, and on a constructor call as it is', () => {
    const call = (receiver: string): string =>
      goCall({ id: 'x', module: 'ledger', target: 'Ledger.Apply', init: { args: [{ t: 'go', v: receiver }], kwargs: {} }, args: [{ t: 'go', v: '-200', type: 'int' }], kwargs: {}, expect: { returns: { t: 'results', v: [] } }, argsAfter: null, source: 'type-hint' });
    expect(call('Ledger{}')).toBe('(&Ledger{}).Apply(-200)');
    expect(call('Pair[int, int]{Key: 1}')).toBe('(&Pair[int, int]{Key: 1}).Apply(-200)');
    expect(call('NewLedger(500)')).toBe('NewLedger(500).Apply(-200)');
  });

  it('writes Go values and calls as Go source, and a prompt with one example of each behaviour', () => {
    expect(goValueText({ t: 'map', type: 'map[string]int', v: [[str('a'), { t: 'int', type: 'int', v: '2' }]] })).toBe('map[string]int{"a": 2}');
    expect(goValueText({ t: 'ptr', type: '*geom.Point', v: { t: 'struct', type: 'geom.Point', v: [['X', { t: 'float', type: 'float64', v: '1' }]] } })).toBe('&geom.Point{X: 1.0}');
    expect(goValueText({ t: 'error', type: '*errors.errorString', msg: 'empty' })).toBe('errors.New("empty") /* *errors.errorString */');
    expect(goValueText({ t: 'int', type: 'int64', v: '-3' })).toBe('int64(-3)');
    const cases = [
      reverseCase('a', '"abc"', results(str('cba'), { t: 'nil', type: 'interface {}' })),
      { ...reverseCase('b', '""', results(str(''), { t: 'error', type: '*errors.errorString', msg: 'textutil: empty input' })), path: 'returns an error *errors.errorString' },
      reverseCase('c', '"héllo"', results(str('olléh'), { t: 'nil', type: 'interface {}' })),
      reverseCase('d', '"x"', { raises: 'string' }),
    ];
    const prompt = goWriter.renderPrompt({ unit: unit('textutil:Reverse'), cases, libraryName: 'a Go module (packages `textutil`)' });
    expect(prompt).toContain('# Implement `Reverse` in `textutil/reverse.go`');
    expect(prompt).toContain('```go\nfunc Reverse(s string) (string, error)\n```');
    expect(goWriter.exampleLines(prompt)).toEqual([
      'Reverse("abc") // → "cba", nil',
      'Reverse("") // → "", errors.New("textutil: empty input") /* *errors.errorString */',
      'Reverse("x") // panics with a string',
    ]);
    expect(goWriter.title(unit('textutil:Reverse'))).toBe('Reverse returns s with its runes in reverse order, or ErrEmpty for ""');
  });

  it('removes the repository tests that call the target, blanks the imports left unused, and drops a file left without tests', () => {
    const source = readFileSync(join(GOKIT, 'textutil/words_test.go'), 'utf8');
    const slugify = goRepoTests.removeTestsOf(source, unit('textutil:Slugify'));
    expect(slugify.removed).toEqual(['TestSlugify']);
    expect(slugify.source).toContain('func TestWordCount');
    expect(slugify.source).not.toContain('TestSlugify');
    const both = goRepoTests.removeTestsOf(goRepoTests.removeTestsOf(source, unit('textutil:Slugify')).source!, unit('textutil:WordCount'));
    expect(both).toEqual({ source: null, removed: ['TestWordCount'] });
    expect(goRepoTests.isTestFile('textutil/words_test.go')).toBe(true);
  });

  it('tokenizes Go for the leak audit, finds copies of the library in an image, and says why go.mod requires are not installed', () => {
    expect(goLeakRules.tokenize('x := `a\nb` // c\nif x != "y" { return }').tokens).toEqual(['x', ':=', '`a\nb`', 'if', 'x', '!=', '"y"', '{', 'return', '}']);
    expect(goLeakRules.indexesImageFile('usr/lib/go-1.19/src/strings/strings.go')).toBe(false);
    expect(goLeakRules.indexesImageFile('usr/share/gocode/src/example.com/gokit/geom/point.go')).toBe(true);
    const files = new Set(['geom/point.go', 'textutil/words.go', 'textutil/reverse.go', 'textutil/words_test.go']);
    expect(goLeakRules.findLibraryCopies(['usr/share/gocode/src/example.com/gokit/geom/point.go', 'usr/share/gocode/src/example.com/gokit/textutil/words.go', 'usr/share/gocode/src/other/x.go'], { units, files })).toEqual(['usr/share/gocode/src/example.com/gokit']);
    const declared = goDependencyRules.declared(new Map([['go.mod', Buffer.from('module x\n\ngo 1.19\n\nrequire (\n\tgithub.com/a/b v1.2.3\n)\n')]]));
    expect(declared).toMatchObject([{ name: 'github.com/a/b', from: 'go.mod', install: null }]);
    expect(goDependencyRules.missingModule('main.go:3:8: no required module provides package github.com/x/y; to add it:')).toBe('github.com/x/y');
  });
});
