import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLanguages } from '../../src/cli/languages.js';
import type { RecordedCase, RepoSnapshot, Unit } from '../../src/languages/construction-types.js';
import { declaredJavaDependencies, javaDependencyRules } from '../../src/languages/java/java-dependencies.js';
import { loadJavaGrammar } from '../../src/languages/java/java-grammar.js';
import { constructed, javaInputs, javaLiteralsOf, typeArguments, warmedSteps } from '../../src/languages/java/java-inputs.js';
import { findJavaLibraryCopies, indexesJavaImageFile, tokenizeJava } from '../../src/languages/java/java-leaks.js';
import { detectJava, unbuildableJava } from '../../src/languages/java/java-plugin.js';
import { classesByName, createJavaRecorder, javaTarget } from '../../src/languages/java/java-recorder.js';
import { javaRepoTests } from '../../src/languages/java/java-repo-tests.js';
import { javaValueText } from '../../src/languages/java/java-values.js';
import { javaCall, javaExampleBlock, javaExampleLines, javaMemberName, javaWriter } from '../../src/languages/java/java-writer.js';
import { scrubJavaWorkspace } from '../../src/languages/java/java-workspace.js';
import { MASKED_JAVA_STATEMENT, maskJavaBody } from '../../src/languages/java/mask-java-body.js';
import { isJavaSourceFile, isJavaTestFile, parseJavaUnits } from '../../src/languages/java/parse-java-units.js';
import { MaskBodyError } from '../../src/languages/language-adapter.js';
import { projectRoot } from '../../src/project-root.js';

const JAVAKIT = join(projectRoot(), 'examples/javakit');
const STRINGS = 'src/main/java/org/javakit/text/Strings.java';

function snapshotOf(dir: string): RepoSnapshot {
  const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [relative(dir, join(d, n))]));
  return { dir, origin: dir, revision: 'working-tree', files: walk(dir).sort() };
}

/** A snapshot of `files` written to a fresh folder. */
const scratch: string[] = [];
function snapshotWith(files: Record<string, string>): RepoSnapshot {
  const dir = mkdtempSync(join(tmpdir(), 'codemidas-java-unit-'));
  scratch.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return snapshotOf(dir);
}

let units: Unit[];
const unit = (id: string, from: readonly Unit[] = units): Unit => {
  const found = from.find((u) => u.id === id);
  if (found === undefined) throw new Error(`no unit ${id}`);
  return found;
};

beforeAll(async () => {
  await loadJavaGrammar();
  const parsed = await parseJavaUnits(snapshotOf(JAVAKIT));
  expect(parsed.problems).toEqual([]);
  units = parsed.units;
});

afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('Java units', () => {
  it('finds the classes, and every method and constructor with a body in the library sources, tests left out', () => {
    expect(units.map((u) => `${u.id} ${u.kind}`)).toEqual([
      'org.javakit.num:IntStack class',
      'org.javakit.num:IntStack.push method',
      'org.javakit.num:IntStack.pop method',
      'org.javakit.num:Ints class',
      'org.javakit.num:Ints.gcd method',
      'org.javakit.num:Ints.isPrime method',
      'org.javakit.num:Ints.digitSum method',
      'org.javakit.num:Ints.prefixSums method',
      'org.javakit.num:Ints.mean method',
      'org.javakit.num:Ints.clamp method',
      'org.javakit.num:Ints.clamp~2 method',
      'org.javakit.num:Vec2 class',
      'org.javakit.num:Vec2.new method',
      'org.javakit.num:Vec2.scale method',
      'org.javakit.num:Vec2.manhattan method',
      'org.javakit.num:Vec2.quadrant method',
      'org.javakit.text:Lists class',
      'org.javakit.text:Lists.rotate method',
      'org.javakit.text:Strings class',
      'org.javakit.text:Strings.reverse method',
      'org.javakit.text:Strings.slugify method',
      'org.javakit.text:Strings.splitWords method',
      'org.javakit.text:Strings.countVowels method',
      'org.javakit.text:Strings.isVowel method',
      'org.javakit.text:Strings.repeatJoin method',
      'org.javakit.text:WordCounter class',
      'org.javakit.text:WordCounter.count method',
    ]);
    expect(isJavaSourceFile('src/main/java/a/B.java')).toBe(true);
    expect(isJavaSourceFile('src/test/java/a/BTest.java')).toBe(false);
    expect(isJavaSourceFile('lib/a/BTest.java')).toBe(false);
    expect(isJavaSourceFile('target/generated/a/B.java')).toBe(false);
    expect(isJavaSourceFile('src/main/java/module-info.java')).toBe(false);
    expect(isJavaTestFile('src/test/java/org/javakit/text/StringsTest.java')).toBe(true);
    expect(isJavaTestFile(STRINGS)).toBe(false);
  });

  it('records visibility, static, constructors, the Javadoc, the signature, parameters and the return type', () => {
    expect(unit('org.javakit.text:Strings.splitWords').decorators).toEqual(['package', 'static']);
    expect(unit('org.javakit.text:Strings.isVowel').decorators).toEqual(['private', 'static']);
    expect(unit('org.javakit.num:Vec2.scale').decorators).toEqual(['public']);
    expect(unit('org.javakit.num:Vec2.new').decorators).toEqual(['public', 'static', 'constructor']);
    expect(unit('org.javakit.num:Vec2').decorators).toEqual(['public', 'ctor:["double","double"]', 'mutator:{"name":"scale","params":["double"]}']);
    expect(unit('org.javakit.num:IntStack').decorators).toEqual(['public', 'ctor:[]', 'mutator:{"name":"push","params":["int"]}']);
    expect(unit('org.javakit.text:Strings').decorators).toEqual(['public']);
    const reverse = unit('org.javakit.text:Strings.reverse');
    expect(reverse.docstring).toBe('Returns s with its characters in reverse order.\n\n@throws IllegalArgumentException when s is empty');
    expect(reverse.signature).toBe('public static String reverse(String s)');
    expect(reverse.params).toEqual([{ name: 's', kind: 'positional', annotation: 'String', defaultValue: null }]);
    expect(reverse.returnAnnotation).toBe('String');
    expect(unit('org.javakit.text:Strings.repeatJoin').params.map((p) => `${p.name} ${p.annotation}`)).toEqual(['s String', 'times int', 'sep char']);
    expect(unit('org.javakit.text:WordCounter.count').returnAnnotation).toBe('Map<String, Integer>');
    expect(unit('org.javakit.num:Vec2.scale').returnAnnotation).toBe('void');
  });

  it('gives the lines of the body, its statements and calls, and call sites from the tests too', () => {
    const slugify = unit('org.javakit.text:Strings.slugify');
    expect([slugify.bodyStartLine, slugify.bodyEndLine, slugify.statementCount]).toEqual([29, 33, 4]);
    expect(slugify.calls).toEqual(['splitWords', 'text.toLowerCase', 'words.isEmpty', 'String.join']);
    expect(slugify.callSites).toEqual([{ file: 'src/test/java/org/javakit/text/StringsTest.java', line: 10, caller: 'StringsTest.slugifiesATitle', argumentTexts: ['"Hello, World!"'], allLiteral: true }]);
    expect(unit('org.javakit.text:Strings.splitWords').callSites.map((s) => s.caller)).toEqual(['Strings.slugify', 'WordCounter.count']);
  });

  it('marks abstract members unbuildable (not overloads: the driver binds typed arguments, so javac picks the overload; not private ones: reflection calls them; nor generic ones: their type variables get concrete types), and finds impurities', async () => {
    const parsed = await parseJavaUnits(
      snapshotWith({
        'src/main/java/p/Box.java': 'package p;\n\nimport java.util.*;\n\npublic class Box<T> {\n    private T value;\n\n    public Box(T value) {\n        this.value = value;\n    }\n\n    public T get() {\n        return value;\n    }\n\n    public static int twice(int x) {\n        return 2 * x;\n    }\n\n    public static long twice(long x) {\n        return 2 * x;\n    }\n\n    private static int hidden(int x) {\n        return x;\n    }\n\n    static <U> List<U> listOf(U u) {\n        return List.of(u);\n    }\n\n    static long now() {\n        System.out.println("x");\n        return System.currentTimeMillis() + new Random().nextInt();\n    }\n}\n',
        'src/main/java/p/Shape.java': 'package p;\n\npublic abstract class Shape {\n    public abstract double area();\n\n    public double twice() {\n        return 2 * area();\n    }\n}\n',
        'Default.java': 'public class Default {\n    static int one() {\n        return 1;\n    }\n}\n',
      }),
    );
    expect(parsed.problems).toEqual([]);
    const code = (id: string): string | undefined => unbuildableJava(unit(id, parsed.units))?.code;
    expect(code('p:Box.new')).toBeUndefined();
    expect(code('p:Box.get')).toBeUndefined();
    expect(unit('p:Box.get', parsed.units).decorators).toEqual(['public', 'generic', 'typevars:{"T":"Integer"}']);
    expect(unit('p:Box', parsed.units).decorators).toEqual(['public', 'generic', 'typevars:{"T":"Integer"}', 'ctor:["T"]']);
    const boxClasses = new Map(parsed.units.filter((u) => u.kind === 'class').map((u) => [u.id, u] as const));
    expect(javaTarget({ unit: unit('p:Box.new', parsed.units), reasons: [] }, boxClasses, 0)).toMatchObject({ params: [{ name: 'value', type: 'Integer' }] });
    expect((javaTarget({ unit: unit('p:Box.get', parsed.units), reasons: [] }, boxClasses, 0)['receivers'] as string[])[0]).toBe('new Box(0)');
    expect(javaTarget({ unit: unit('p:Box.listOf', parsed.units), reasons: [] }, boxClasses, 0)).toMatchObject({ params: [{ name: 'u', type: 'Integer' }] });
    expect(code('p:Box.twice')).toBeUndefined();
    expect(code('p:Box.twice~2')).toBeUndefined();
    expect(unit('p:Box.twice~2', parsed.units).decorators).toContain('overloaded');
    expect(javaMemberName(unit('p:Box.twice', parsed.units))).toBe('Box.twice(int)');
    expect(javaMemberName(unit('p:Box.twice~2', parsed.units))).toBe('Box.twice(long)');
    expect(javaMemberName(unit('p:Box.get', parsed.units))).toBe('Box.get');
    expect(code('p:Box.hidden')).toBeUndefined();
    expect(code('p:Box.listOf')).toBeUndefined();
    expect(code('p:Shape.twice')).toBe('abstract-class');
    expect(code('(default):Default.one')).toBeUndefined();
    expect(unit('p:Box.twice~2', parsed.units).params[0]?.annotation).toBe('long');
    expect(unit('p:Box.now', parsed.units).impurities).toEqual(['io:System.out.println', 'clock:System.currentTimeMillis', 'random:new Random']);
    expect(parsed.units.some((u) => u.qualname === 'Shape.area')).toBe(false);
  });

  it('reads varargs as arrays and reports a file that does not parse', async () => {
    const parsed = await parseJavaUnits(snapshotWith({ 'A.java': 'class A {\n    static int sum(int... xs) {\n        int s = 0;\n        return s;\n    }\n}\n', 'B.java': 'class B { void f( }' }));
    expect(unit('(default):A.sum', parsed.units).params).toEqual([{ name: 'xs', kind: 'var-positional', annotation: 'int[]', defaultValue: null }]);
    expect(parsed.problems.map((p) => `${p.file} ${p.code}`)).toEqual(['B.java syntax-error']);
  });
});

describe('Java masking', () => {
  it('replaces the body with a throw, keeping the signature and Javadoc', () => {
    const source = readFileSync(join(JAVAKIT, STRINGS), 'utf8');
    const masked = maskJavaBody(source, unit('org.javakit.text:Strings.reverse'));
    expect(masked).toContain(`     * @throws IllegalArgumentException when s is empty\n     */\n    public static String reverse(String s) {\n        ${MASKED_JAVA_STATEMENT}\n    }\n`);
    expect(masked).not.toContain('out.append(s.charAt(i));');
    expect(masked).toContain('public static String slugify(String text) {\n        List<String> words');
  });

  it("keeps a constructor's explicit super(...) call", async () => {
    const parsed = await parseJavaUnits(snapshotWith({ 'p/C.java': 'package p;\n\nclass C extends B {\n    private final int x;\n\n    C(int x) {\n        super(x);\n        this.x = x * 2;\n    }\n}\n' }));
    const ctor = unit('p:C.new', parsed.units);
    const masked = maskJavaBody(readFileSync(join(scratch.at(-1)!, 'p/C.java'), 'utf8'), ctor);
    expect(masked).toContain(`    C(int x) {\n        super(x);\n        ${MASKED_JAVA_STATEMENT}\n    }`);
  });

  it('throws MaskBodyError when the method is not where the unit says', () => {
    const moved = { ...unit('org.javakit.text:Strings.reverse'), bodyStartLine: 3 };
    expect(() => maskJavaBody(readFileSync(join(JAVAKIT, STRINGS), 'utf8'), moved)).toThrow(MaskBodyError);
  });
});

describe('Java inputs and targets', () => {
  const classes = (): Map<string, Unit> => new Map(units.filter((u) => u.kind === 'class').map((u) => [u.id, u] as const));

  it('writes typed literals of each type', () => {
    const none = new Map<string, Unit>();
    expect(javaLiteralsOf('int', none).slice(0, 3)).toEqual(['0', '1', '-1']);
    expect(javaLiteralsOf('long', none)[1]).toBe('1L');
    expect(javaLiteralsOf('Integer', none).at(-1)).toBe('null');
    expect(javaLiteralsOf('float', none)[2]).toBe('1.5f');
    expect(javaLiteralsOf('char', none)[0]).toBe("'a'");
    expect(javaLiteralsOf('String', none).slice(0, 3)).toEqual(['""', '"a"', '"abc"']);
    expect(javaLiteralsOf('int[]', none)).toEqual(['new int[] {}', 'new int[] {1}', 'new int[] {1, -1}', 'new int[] {-1, 1, 2, 1}', 'null']);
    expect(javaLiteralsOf('List<String>', none)[2]).toBe('new java.util.ArrayList<>(java.util.List.of("a", "abc"))');
    expect(javaLiteralsOf('Map<String, Integer>', none)[1]).toBe('new java.util.HashMap<>(java.util.Map.of("a", 1))');
    expect(javaLiteralsOf('List<String>[]', none)).toEqual(['null']);
    expect(javaLiteralsOf('Thread', none)).toEqual(['null']);
    expect(javaLiteralsOf('Vec2', classesByName(classes()))[0]).toBe('new Vec2(0.0, 0.0)');
    expect(typeArguments('Map<String, List<Integer>>')).toEqual(['String', 'List<Integer>']);
    // readers, streams and buffers over the same strings
    expect(javaLiteralsOf('Reader', none)[2]).toBe('new java.io.StringReader("abc")');
    expect(javaLiteralsOf('java.io.InputStream', none)[1]).toBe('new java.io.ByteArrayInputStream("a".getBytes(java.nio.charset.StandardCharsets.UTF_8))');
    expect(javaLiteralsOf('Appendable', none)[0]).toBe('new java.lang.StringBuilder()');
    expect(javaLiteralsOf('Writer', none)[0]).toBe('new java.io.StringWriter()');
  });

  it('makes instances of a class without a reachable constructor from its constants and static factories', async () => {
    const parsed = await parseJavaUnits(
      snapshotWith({
        'src/main/java/p/Format.java':
          'package p;\n\npublic final class Format {\n    public static final Format DEFAULT = new Format(\',\');\n    static final Format TABS = new Format(\'\\t\');\n    private static final Format HIDDEN = new Format(\';\');\n    public static final int LIMIT = 3;\n    private final char sep;\n\n    private Format(char sep) {\n        this.sep = sep;\n    }\n\n    public static Format of(char sep) {\n        return new Format(sep);\n    }\n\n    public static <T> Format generic(T t) {\n        return DEFAULT;\n    }\n\n    public String join(String a, String b) {\n        String out = a;\n        out += sep;\n        return out + b;\n    }\n}\n',
      }),
    );
    const format = unit('p:Format', parsed.units);
    expect(format.decorators.filter((d) => d.startsWith('const:') || d.startsWith('factory:') || d.startsWith('ctor:'))).toEqual(['const:DEFAULT', 'const:TABS', 'factory:{"name":"of","params":["char"]}']);
    expect(constructed(format, new Map([['Format', format]]))).toEqual(["Format.DEFAULT", "Format.TABS", "Format.of('a')", "Format.of('Z')", "Format.of(' ')", "Format.of('1')"]);
  });

  it('builds receivers from the constructors, and inputs from repository calls first', () => {
    expect(constructed(unit('org.javakit.num:Vec2'), classesByName(classes()))).toEqual(['new Vec2(0.0, 0.0)', 'new Vec2(1.0, 1.0)', 'new Vec2(1.5, -2.25)', 'new Vec2(-2.25, 100.0)']);
    expect(constructed(unit('org.javakit.num:IntStack'), classesByName(classes()))).toEqual(['new IntStack()']);
    // receivers warmed by the class's void methods: a stack with values pushed
    const pop = createJavaRecorder({ seed: 1 }).target({ unit: unit('org.javakit.num:IntStack.pop'), reasons: [] }, classes(), []);
    expect(pop['receivers']).toEqual([
      'new IntStack()',
      '((CodemidasMake<IntStack>) () -> { IntStack codemidasW = new IntStack(); codemidasW.push(-1); return codemidasW; }).make()',
      '((CodemidasMake<IntStack>) () -> { IntStack codemidasW = new IntStack(); codemidasW.push(2); codemidasW.push(7); return codemidasW; }).make()',
      '((CodemidasMake<IntStack>) () -> { IntStack codemidasW = new IntStack(); codemidasW.push(7); codemidasW.push(10); codemidasW.push(42); return codemidasW; }).make()',
    ]);
    // shown to people as statements, in the driver's CodemidasMake form and in the Supplier form of earlier suites
    expect(warmedSteps((pop['receivers'] as string[])[2]!)).toEqual({ steps: 'var x = new IntStack(); x.push(2); x.push(7);', variable: 'x' });
    expect(warmedSteps('((java.util.function.Supplier<IntStack>) () -> { IntStack codemidasW = new IntStack(); codemidasW.push(2); return codemidasW; }).get()')?.steps).toBe('var x = new IntStack(); x.push(2);');
    const inputs = javaInputs(unit('org.javakit.text:Strings.slugify'), classesByName(classes()), 0, 60, isJavaTestFile);
    expect(inputs[0]).toEqual({ args: ['"Hello, World!"'], source: 'repo-test' });
    expect(inputs.length).toBe(11);
    const target = createJavaRecorder({ seed: 1 }).target({ unit: unit('org.javakit.num:Vec2.scale'), reasons: [] }, classes(), []);
    expect(target).toMatchObject({ unitId: 'org.javakit.num:Vec2.scale', package: 'org.javakit.num', cls: 'Vec2', member: 'scale', static: false, ctor: false, void: true, params: [{ name: 'factor', type: 'double' }] });
    expect((target['receivers'] as string[]).length).toBe(4);
    // a method without parameters is told apart by its receivers alone: it gets more
    const quadrant = createJavaRecorder({ seed: 1 }).target({ unit: unit('org.javakit.num:Vec2.quadrant'), reasons: [] }, classes(), []);
    expect(new Set(quadrant['receivers'] as string[]).size).toBe(16);
    expect(javaTarget({ unit: unit('org.javakit.num:Vec2.new'), reasons: [] }, classes(), 0)).toMatchObject({ member: 'new', static: true, ctor: true, void: false, reflect: false });
    expect(javaTarget({ unit: unit('org.javakit.text:Strings.isVowel'), reasons: [] }, classes(), 0)).toMatchObject({ member: 'isVowel', static: true, reflect: true, params: [{ name: 'c', type: 'char' }] });
  });
});

describe('Java writing', () => {
  const call = { t: 'java-call', file: STRINGS, cls: 'Strings', member: 'reverse', static: true, ctor: false, void: false };
  const base = (over: Partial<RecordedCase>): RecordedCase => ({ id: 'c1', module: 'org.javakit.text', target: 'Strings.reverse', init: { args: [], kwargs: { call } }, args: [{ t: 'java', v: '"abc"', type: 'String' }], kwargs: {}, expect: { returns: { t: 'str', v: 'cba' } }, argsAfter: null, source: 'type-hint', ...over });

  it('shows values as Java', () => {
    expect(javaValueText({ t: 'int', type: 'long', v: '6' })).toBe('6L');
    expect(javaValueText({ t: 'float', type: 'double', v: 'NaN' })).toBe('Double.NaN');
    expect(javaValueText({ t: 'char', v: "'" })).toBe("'\\''");
    expect(javaValueText({ t: 'array', type: 'int[]', v: [{ t: 'int', type: 'int', v: '1' }] })).toBe('new int[] {1}');
    expect(javaValueText({ t: 'map', type: 'Map', v: [[{ t: 'str', v: 'a' }, { t: 'int', type: 'int', v: '2' }]] })).toBe('Map.of("a", 2)');
    expect(javaValueText({ t: 'obj', type: 'org.javakit.num.Vec2', v: [['x', { t: 'float', type: 'double', v: '1.0' }]] })).toBe('Vec2{x=1.0}');
    expect(javaValueText({ t: 'obj', type: 'java.math.BigInteger', str: '12' })).toBe('BigInteger[12]');
  });

  it('writes each case as a Java call with its result, its exception or what it changed', () => {
    const u = unit('org.javakit.text:Strings.reverse');
    expect(javaExampleBlock(u, base({}))).toBe('Strings.reverse("abc"); // → "cba"');
    expect(javaExampleBlock(u, base({ expect: { raises: 'java.lang.IllegalArgumentException' }, shown: ['empty input'] }))).toBe('Strings.reverse("abc"); // throws java.lang.IllegalArgumentException ("empty input")');
    const scale = base({
      target: 'Vec2.scale',
      init: { args: [{ t: 'java', v: 'new Vec2(1.0, 1.0)' }], kwargs: { call: { ...call, cls: 'Vec2', member: 'scale', static: false, void: true } } },
      args: [{ t: 'java', v: '2.0', type: 'double' }],
      expect: { returns: { t: 'void' } },
      argsAfter: [{ t: 'obj', type: 'org.javakit.num.Vec2', v: [['x', { t: 'float', type: 'double', v: '2.0' }]] }, { t: 'float', type: 'double', v: '2.0' }],
    });
    expect(javaExampleBlock(unit('org.javakit.num:Vec2.scale'), scale)).toBe('new Vec2(1.0, 1.0).scale(2.0); // → (nothing: void)\n// afterwards the receiver is Vec2{x=2.0}');
    const warmedPop = base({ target: 'IntStack.pop', init: { args: [{ t: 'java', v: '((java.util.function.Supplier<IntStack>) () -> { IntStack codemidasW = new IntStack(); codemidasW.push(2); codemidasW.push(7); return codemidasW; }).get()' }], kwargs: { call: { ...call, cls: 'IntStack', member: 'pop', static: false } } }, args: [], expect: { returns: { t: 'int', type: 'int', v: '7' } } });
    expect(javaExampleBlock(unit('org.javakit.num:IntStack.pop'), warmedPop)).toBe('var x = new IntStack(); x.push(2); x.push(7);\nx.pop(); // → 7');
    expect(javaCall(base({ target: 'Vec2.new', init: { args: [], kwargs: { call: { ...call, ctor: true } } } }))).toBe('new Vec2("abc")');
  });

  it('renders a prompt with the signature, the Javadoc and one example per behaviour class', () => {
    const u = unit('org.javakit.text:Strings.reverse');
    const cases = [base({}), base({ id: 'c2', args: [{ t: 'java', v: '""', type: 'String' }], expect: { raises: 'java.lang.IllegalArgumentException' } })];
    const prompt = javaWriter.renderPrompt({ unit: u, cases, libraryName: 'a Java library' });
    expect(prompt).toContain('```java\npublic static String reverse(String s)\n```');
    expect(prompt).toContain('the public static method `reverse` of class `Strings`');
    expect(prompt).not.toContain('through reflection');
    expect(javaWriter.renderPrompt({ unit: unit('org.javakit.text:Strings.isVowel'), cases, libraryName: 'a Java library' })).toContain('the private static method `isVowel` of class `Strings`');
    expect(prompt).toContain('@throws IllegalArgumentException when s is empty');
    expect(javaExampleLines(prompt)).toEqual(['Strings.reverse("abc"); // → "cba"', 'Strings.reverse(""); // throws java.lang.IllegalArgumentException']);
    expect(javaWriter.title(u)).toBe('Returns s with its characters in reverse order');
    expect(javaWriter.readableTest({ taskId: 'javakit/strings-reverse', taskName: 'strings-reverse', cases, unit: u }).content).toContain('// Strings.reverse("abc"); // → "cba"');
  });
});

describe('Java repository tests, leaks and dependencies', () => {
  it('removes the @Test methods that call the target, and the file when none is left', () => {
    const source = readFileSync(join(JAVAKIT, 'src/test/java/org/javakit/text/StringsTest.java'), 'utf8');
    const thinned = javaRepoTests.removeTestsOf(source, unit('org.javakit.text:Strings.slugify'));
    expect(thinned.removed).toEqual(['slugifiesATitle']);
    expect(thinned.source).not.toContain('slugify');
    expect(thinned.source).toContain('void countsVowels()');
    expect(javaRepoTests.removeTestsOf(source, unit('org.javakit.num:Ints.gcd'))).toEqual({ source, removed: [] });
    const once = thinned.source!;
    expect(javaRepoTests.removeTestsOf(once, unit('org.javakit.text:Strings.countVowels'))).toEqual({ source: null, removed: ['countsVowels'] });
  });

  it('cuts Java into tokens, comments dropped, and finds copies of the library', () => {
    expect(tokenizeJava('int x = a >>> 2; // c\n/* d */ String s = "a\\"b"; char c = \'x\';').tokens).toEqual(['int', 'x', '=', 'a', '>>>', '2', ';', 'String', 's', '=', '"a\\"b"', ';', 'char', 'c', '=', "'x'", ';']);
    expect(tokenizeJava('a\n\nb').lines).toEqual([1, 3]);
    expect(indexesJavaImageFile('/usr/share/java/javakit.jar')).toBe(true);
    expect(indexesJavaImageFile('/usr/lib/jvm/java-17/src/A.java')).toBe(false);
    const library = { units, files: new Set(snapshotOf(JAVAKIT).files) };
    const paths = ['org/javakit/text/Strings', 'org/javakit/text/WordCounter', 'org/javakit/text/Lists', 'org/javakit/num/Ints', 'org/javakit/num/Vec2', 'org/javakit/num/IntStack'].map((p) => `/usr/share/java/classes/${p}.class`);
    expect(findJavaLibraryCopies([...paths, '/usr/share/java/javakit-0.1.jar', '/usr/share/java/guava.jar', '/opt/x/org/javakit/text/Strings.java'], library)).toEqual(['/usr/share/java/classes', '/usr/share/java/javakit-0.1.jar']);
  });

  it('reads pom.xml and build.gradle dependencies, none installed, test ones marked', () => {
    const declared = declaredJavaDependencies(
      new Map([
        ['pom.xml', readFileSync(join(JAVAKIT, 'pom.xml'))],
        ['sub/build.gradle', Buffer.from("dependencies {\n    implementation 'com.google.guava:guava:32.1.2-jre'\n    testImplementation \"junit:junit:4.13\"\n}\n")],
      ]),
    );
    expect(declared.map((d) => [d.name, d.install, d.forTests ?? false])).toEqual([
      ['com.google.guava:guava', null, false],
      ['junit:junit', null, true],
      ['org.junit.jupiter:junit-jupiter', null, true],
    ]);
    expect(declared[0]?.why).toContain('libguava-java');
    expect(javaDependencyRules.missingModule('Foo.java:3: error: package com.google.common.base does not exist')).toBe('com.google.common.base');
  });

  it('scrubs compiled copies of the library classes from the workspace', () => {
    const files = new Map(['bin/org/javakit/text/Strings.class', 'bin/org/javakit/text/Strings$1.class', 'bin/org/other/Strings.class', 'lib/dep.jar', STRINGS].map((p) => [p, Buffer.from('')] as const));
    expect(scrubJavaWorkspace({ files, units })).toEqual({
      remove: ['bin/org/javakit/text/Strings$1.class', 'bin/org/javakit/text/Strings.class'].map((path) => ({ path, rule: 'compiled copy of a library class (.class)', replacement: null })),
      keep: [],
    });
  });

  it('is registered as the java language, and detects a Java repository', () => {
    const java = createLanguages().get('java');
    expect(java.taskLanguages).toEqual(['java']);
    expect(java.image).toBe('java');
    expect(java.testRunners.map((r) => r.name)).toEqual(['java']);
    expect(detectJava(snapshotOf(JAVAKIT))).toMatchObject({ language: 'java', detected: true, reason: '7 Java files (6 outside tests), pom.xml' });
  });
});
