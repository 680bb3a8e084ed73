import { createRandom } from '../../pipeline/select/seeded-order.js';
import type { Unit } from '../construction-types.js';

/** One recorded input of a Java target: each argument as a Java expression in the target's package, and where it came from. */
export interface JavaInput {
  args: string[];
  source: string;
}

const INTS = ['0', '1', '-1', '2', '7', '10', '42', '-5', '100', '1000000'];
const DOUBLES = ['0.0', '1.0', '1.5', '-2.25', '0.1', '100.0', '-0.5', '3.75'];
const STRINGS = ['""', '"a"', '"abc"', '"Hello, World!"', '"  two  words  "', '"héllo"', '"a-b_c"', '"123"', '"A B a"', '"education"'];
const CHARS = ["'a'", "'Z'", "' '", "'1'", "'-'", "'é'", "'o'", "'U'", "'e'"];

/** The constructors of a class unit: the parameter types of each (`ctor:[...]` decorators), fewest first. */
export function constructorsOf(cls: Unit): string[][] {
  return cls.decorators
    .filter((d) => d.startsWith('ctor:'))
    .map((d) => {
      try {
        const parsed: unknown = JSON.parse(d.slice('ctor:'.length));
        return Array.isArray(parsed) ? parsed.map(String) : [];
      } catch {
        return [];
      }
    })
    .sort((a, b) => a.length - b.length);
}

/** What the harness puts for each type variable of a generic unit (`typevars:` decorator): `{"T": "Integer"}`. */
export function typeVarsOf(unit: Unit): Record<string, string> {
  const d = unit.decorators.find((x) => x.startsWith('typevars:'));
  if (d === undefined) return {};
  try {
    const parsed = JSON.parse(d.slice('typevars:'.length)) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  } catch {
    return {};
  }
}

/** `type` with each type variable replaced by its concrete type (`List<T>` → `List<Integer>`). */
export function concreteType(type: string, vars: Readonly<Record<string, string>>): string {
  return Object.entries(vars).reduce((t, [name, value]) => t.replace(new RegExp(`(?<![\\w.$])${name.replace(/[$]/g, '\\$')}(?![\\w$])`, 'g'), value), type);
}

/** The type arguments of a generic type's text (`Map<String, List<Integer>>` → `String`, `List<Integer>`), split at top-level commas. */
export function typeArguments(type: string): string[] {
  const open = type.indexOf('<');
  if (open < 0 || !type.endsWith('>')) return [];
  const inner = type.slice(open + 1, -1);
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i += 1) {
    const ch = inner[i];
    if (ch === '<') depth += 1;
    else if (ch === '>') depth -= 1;
    else if (ch === ',' && depth === 0) {
      out.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(inner.slice(start).trim());
  return out.filter((t) => t !== '');
}

/** A literal as the element of a boxed collection (`List.of(1L)` needs `1L` for a `Long`). */
function boxed(type: string, classes: ReadonlyMap<string, Unit>, depth: number): string[] {
  return javaLiteralsOf(type, classes, depth).filter((v) => v !== 'null');
}

/**
 * Java literals of `type`, few and varied, the plainest first (inputs vary one parameter at a time
 * from the first of each): numbers, chars, strings and booleans by type (boxed types too, and null
 * for them last); arrays (`new int[] {1, 2}`), lists, sets and maps (mutable copies of `List.of`,
 * `Set.of`, `Map.of`) built of their elements' literals; a class of the repository from its
 * constructors (`new Vec2(1.0, 1.0)`, `classes` by simple name), null after; any other type null.
 */
export function javaLiteralsOf(type: string, classes: ReadonlyMap<string, Unit>, depth = 0): string[] {
  const t = type.trim().replace(/^final\s+/, '');
  switch (t) {
    case 'int':
      return INTS;
    case 'Integer':
      return [...INTS, 'null'];
    case 'long':
    case 'Long':
      return [...INTS.map((v) => `${v}L`), ...(t === 'Long' ? ['null'] : [])];
    case 'short':
    case 'Short':
      return INTS.slice(0, 8).map((v) => `(short) ${v}`);
    case 'byte':
    case 'Byte':
      return INTS.slice(0, 8).map((v) => `(byte) ${v}`);
    case 'double':
    case 'Double':
      return [...DOUBLES, ...(t === 'Double' ? ['null'] : [])];
    case 'float':
    case 'Float':
      return DOUBLES.map((v) => `${v}f`);
    case 'boolean':
    case 'Boolean':
      return ['true', 'false'];
    case 'char':
    case 'Character':
      return CHARS;
    case 'String':
    case 'CharSequence':
      return [...STRINGS, 'null'];
    case 'Object':
      return ['null', '1', '"a"'];
    // streams and buffers of text or bytes, over the same strings
    case 'Reader':
    case 'java.io.Reader':
    case 'StringReader':
    case 'java.io.StringReader':
      return [...STRINGS.map((v) => `new java.io.StringReader(${v})`), 'null'];
    case 'InputStream':
    case 'java.io.InputStream':
    case 'ByteArrayInputStream':
    case 'java.io.ByteArrayInputStream':
      return [...STRINGS.map((v) => `new java.io.ByteArrayInputStream(${v}.getBytes(java.nio.charset.StandardCharsets.UTF_8))`), 'null'];
    case 'StringBuilder':
    case 'java.lang.StringBuilder':
    case 'Appendable':
    case 'java.lang.Appendable':
      return ['new java.lang.StringBuilder()', 'new java.lang.StringBuilder("x")', 'null'];
    case 'StringBuffer':
    case 'java.lang.StringBuffer':
      return ['new java.lang.StringBuffer()', 'new java.lang.StringBuffer("x")', 'null'];
    case 'Writer':
    case 'java.io.Writer':
    case 'StringWriter':
    case 'java.io.StringWriter':
      return ['new java.io.StringWriter()', 'null'];
    default:
      break;
  }
  if (depth > 2) return ['null'];
  const array = /^(.+)\[\]$/.exec(t);
  if (array) {
    // a generic array cannot be created (`new List<String>[] {…}`)
    if (t.includes('<')) return ['null'];
    const items = javaLiteralsOf(array[1]!, classes, depth + 1).filter((v) => v !== 'null');
    const [a = 'null', b = a, c = b] = items.slice(1).length > 1 ? items.slice(1) : items;
    const made = (xs: string[]): string => `new ${t} {${xs.join(', ')}}`;
    return [made([]), made([a]), made([a, b]), made([b, a, c, a]), 'null'];
  }
  const base = t.replace(/<.*$/, '');
  const args = typeArguments(t);
  if (/^(?:java\.util\.)?(?:List|ArrayList|Collection|Iterable|LinkedList)$/.test(base)) {
    const items = args[0] === undefined ? ['"a"', '"b"'] : boxed(args[0], classes, depth + 1);
    const [a = 'null', b = a, c = b] = items.slice(1).length > 1 ? items.slice(1) : items;
    const list = (xs: string[]): string => `new java.util.ArrayList<>(java.util.List.of(${xs.join(', ')}))`;
    return [list([]), list([a]), list([a, b]), list([b, a, c, a]), 'null'];
  }
  if (/^(?:java\.util\.)?(?:Set|HashSet|TreeSet|LinkedHashSet)$/.test(base)) {
    const items = args[0] === undefined ? ['"a"', '"b"'] : boxed(args[0], classes, depth + 1);
    const distinct = [...new Set(items.slice(1))];
    const set = (xs: string[]): string => `new java.util.${base.includes('Tree') ? 'TreeSet' : base.includes('Linked') ? 'LinkedHashSet' : 'HashSet'}<>(java.util.List.of(${xs.join(', ')}))`;
    return [set([]), ...(distinct[0] ? [set([distinct[0]])] : []), ...(distinct.length > 2 ? [set(distinct.slice(0, 3))] : []), 'null'];
  }
  if (/^(?:java\.util\.)?(?:Map|HashMap|TreeMap|LinkedHashMap)$/.test(base)) {
    const keys = args[0] === undefined ? ['"a"', '"b"'] : [...new Set(boxed(args[0], classes, depth + 1).slice(1))];
    const values = args[1] === undefined ? ['1', '2'] : boxed(args[1], classes, depth + 1).slice(1);
    const map = (n: number): string => `new java.util.${base.includes('Tree') ? 'TreeMap' : base.includes('Linked') ? 'LinkedHashMap' : 'HashMap'}<>(java.util.Map.of(${keys.slice(0, n).map((k, i) => `${k}, ${values[i % Math.max(1, values.length)] ?? 'null'}`).join(', ')}))`;
    return [map(0), ...(keys.length > 0 ? [map(1)] : []), ...(keys.length > 1 ? [map(2)] : []), 'null'];
  }
  const cls = classes.get(base);
  if (cls !== undefined && args.length === 0) return [...constructed(cls, classes, depth + 1), 'null'];
  return ['null'];
}

/** The static factories of a class unit (`factory:` decorators): static methods that return its own type. */
export function factoriesOf(cls: Unit): { name: string; params: string[] }[] {
  return namedCallsOf(cls, 'factory:');
}

/**
 * Instances of a class as Java expressions: `new C(…)` from its constructors (not an abstract
 * class's), for each its first literals, its second, two varied picks; then its constants of its own
 * type (`C.DEFAULT`); then its static factories called the same ways (`C.of(…)`); then seeded
 * combinations, up to `count` in all (a method without parameters is told apart by its receivers alone).
 */
export function constructed(cls: Unit, classes: ReadonlyMap<string, Unit>, depth = 0, count = 4, seed = 0): string[] {
  const out = new Set<string>();
  // a generic class is built raw (`new Box(1)`), each type variable given its concrete type
  const vars = typeVarsOf(cls);
  const maker = (callee: string, params: readonly string[]) => ({ callee, lists: params.map((p) => javaLiteralsOf(concreteType(p, vars), classes, depth + 1)) });
  const ctorMakers = cls.decorators.includes('abstract') ? [] : constructorsOf(cls).slice(0, 3).map((params) => maker(`new ${cls.qualname}`, params));
  const factoryMakers = factoriesOf(cls).slice(0, 3).map((f) => maker(`${cls.qualname}.${f.name}`, f.params));
  const makers = [...ctorMakers, ...factoryMakers];
  const pick = (m: (typeof makers)[number], f: (k: number) => number): string => `${m.callee}(${m.lists.map((l, k) => l[f(k) % l.length] ?? 'null').join(', ')})`;
  const constants = cls.decorators.filter((d) => d.startsWith('const:')).map((d) => `${cls.qualname}.${d.slice('const:'.length)}`);
  const picks = (m: (typeof makers)[number]): void => {
    for (const f of [() => 0, () => 1, (k: number) => k + 2, (k: number) => 3 + 2 * k]) out.add(pick(m, f));
  };
  // the constructors' first (a class's receivers as before), then its constants, then its factories'
  ctorMakers.forEach(picks);
  for (const constant of constants.slice(0, 4)) out.add(constant);
  factoryMakers.forEach(picks);
  const random = createRandom(`${seed}:${cls.id}`);
  for (let tries = 0; tries < count * 4 && out.size < count && makers.length > 0; tries += 1) {
    out.add(pick(makers[Math.floor(random() * makers.length)]!, () => Math.floor(random() * 1000)));
  }
  return [...out].slice(0, Math.max(count, 4 * makers.length + Math.min(4, constants.length)));
}

/** `{name, params}` of a class unit's decorators that start with `prefix` (`mutator:`, `factory:`). */
function namedCallsOf(cls: Unit, prefix: string): { name: string; params: string[] }[] {
  return cls.decorators.filter((d) => d.startsWith(prefix)).flatMap((d) => {
    try {
      const parsed = JSON.parse(d.slice(prefix.length)) as { name?: unknown; params?: unknown };
      return typeof parsed.name === 'string' && Array.isArray(parsed.params) ? [{ name: parsed.name, params: parsed.params.map(String) }] : [];
    } catch {
      return [];
    }
  });
}

/** The void instance methods of a class unit (`mutator:` decorators): what receivers may be warmed with. */
export function mutatorsOf(cls: Unit): { name: string; params: string[] }[] {
  return namedCallsOf(cls, 'mutator:');
}

/** The variable a warmed receiver is built in (`WARMED_PREFIX … WARMED_SUFFIX`: one Java expression). */
const WARMED_VAR = 'codemidasW';

/**
 * A receiver built by calls: `new C(…)`, then `calls` (Java statements on the receiver's variable),
 * as one Java expression (a lambda of the driver's `CodemidasMake`, which may throw, called at once;
 * the driver builds receivers inside a try that reports any throwable as a receiver that failed).
 */
export function warmedReceiver(cls: string, construction: string, calls: readonly string[]): string {
  // CodemidasMake (the driver's) may throw: a constructor or warming call that declares a checked exception compiles
  return `((CodemidasMake<${cls}>) () -> { ${cls} ${WARMED_VAR} = ${construction}; ${calls.map((c) => `${WARMED_VAR}.${c};`).join(' ')} return ${WARMED_VAR}; }).make()`;
}

/** A warmed receiver expression as statements people read (`var x = new C(); x.push(1);`), and the variable; null for any other expression. */
export function warmedSteps(receiver: string): { steps: string; variable: string } | null {
  // CodemidasMake's `.make()`, or (suites built before it) a Supplier's `.get()`
  const m = /^\(\((?:java\.util\.function\.Supplier|CodemidasMake)<[\w.]+>\) \(\) -> \{ [\w.]+ codemidasW = (.*?); ((?:codemidasW\.[^;]*; )*)return codemidasW; \}\)\.(?:get|make)\(\)$/.exec(receiver);
  if (m === null) return null;
  return { steps: `var x = ${m[1]}; ${m[2]!.replace(/codemidasW\./g, 'x.')}`.trim(), variable: 'x' };
}

/**
 * Receivers warmed by the class's void methods (a stack with values pushed): the first constructor's
 * plainest instance, then one, two and three calls of each such method with varied literals, up to `count`.
 */
export function warmed(cls: Unit, classes: ReadonlyMap<string, Unit>, count: number): string[] {
  const base = constructed(cls, classes, 0, 1)[0];
  if (base === undefined) return [];
  const out: string[] = [];
  for (const m of mutatorsOf(cls).slice(0, 3)) {
    const lists = m.params.map((p) => javaLiteralsOf(concreteType(p, typeVarsOf(cls)), classes, 1).filter((v) => v !== 'null'));
    const call = (i: number): string => `${m.name}(${lists.map((l, k) => l[(i + 2 * k + 1) % Math.max(1, l.length)] ?? 'null').join(', ')})`;
    for (const n of [1, 2, 3]) out.push(warmedReceiver(cls.qualname, base, Array.from({ length: n }, (_, i) => call(i + n))));
  }
  return out.slice(0, count);
}

/** Inputs from the repository's own calls of the unit whose every argument is a literal (calls in test files count as `repo-test`). */
export function callSiteInputs(unit: Unit, isTestFile: (file: string) => boolean): JavaInput[] {
  return unit.callSites.filter((s) => s.allLiteral && s.argumentTexts.length === unit.params.length).map((s) => ({ args: s.argumentTexts, source: isTestFile(s.file) ? 'repo-test' : 'call-site' }));
}

/**
 * The inputs a Java target is recorded on: the repository's literal calls first, then from the
 * parameters' types the first literal of each, each parameter varied alone through its literals,
 * and seeded combinations, up to `max`, without repeats.
 */
export function javaInputs(unit: Unit, classes: ReadonlyMap<string, Unit>, seed: number, max: number, isTestFile: (file: string) => boolean): JavaInput[] {
  const out: JavaInput[] = [];
  const seen = new Set<string>();
  const add = (input: JavaInput): void => {
    const key = JSON.stringify(input.args);
    if (seen.has(key) || out.length >= max) return;
    seen.add(key);
    out.push(input);
  };
  for (const input of callSiteInputs(unit, isTestFile)) add(input);
  const vars = typeVarsOf(unit);
  const lists = unit.params.map((p) => javaLiteralsOf(concreteType(p.annotation ?? 'Object', vars), classes));
  if (lists.length === 0) {
    add({ args: [], source: 'type-hint' });
    return out;
  }
  const base = lists.map((l) => l[0] ?? 'null');
  add({ args: base, source: 'type-hint' });
  lists.forEach((list, k) => {
    for (const value of list.slice(1)) add({ args: base.map((b, j) => (j === k ? value : b)), source: 'type-hint' });
  });
  const random = createRandom(seed);
  for (let tries = 0; tries < max * 4 && out.length < max; tries += 1) add({ args: lists.map((l) => l[Math.floor(random() * l.length)] ?? 'null'), source: 'type-hint' });
  return out;
}
