import { createRandom } from '../../pipeline/select/seeded-order.js';
import type { Param, Unit } from '../construction-types.js';

/** One recorded input of a Go target: each argument as Go source in the target's package, and where it came from. */
export interface GoInput {
  args: string[];
  source: string;
}

const INTS = ['0', '1', '-1', '2', '7', '10', '42', '-5', '100', '1000000'];
const UINTS = ['0', '1', '2', '7', '10', '42', '255', '1000'];
const FLOATS = ['0', '1', '1.5', '-2.25', '0.1', '100', '-0.5', '3.75'];
const STRINGS = ['""', '"a"', '"abc"', '"Hello, World!"', '"  two  words  "', '"héllo"', '"a-b_c"', '"123"', '"A B a"'];
const RUNES = ["'a'", "'Z'", "'é'", "' '", "'1'"];
const BYTES = ['0', '65', '97', '255'];
/** Durations from a nanosecond to over a year (the driver file imports time). */
const DURATIONS = ['time.Duration(0)', 'time.Duration(1)', 'time.Duration(1500000)', 'time.Duration(1000000000)', 'time.Duration(59000000000)', 'time.Duration(3600000000000)', 'time.Duration(129600000000000)', 'time.Duration(864000000000000)', 'time.Duration(34560000000000000)'];

/** Whether `type` is a Go integer, unsigned integer or floating-point type. */
const INT_TYPES = /^(?:int|int8|int16|int32|int64)$/;
const UINT_TYPES = /^(?:uint|uint16|uint32|uint64|uintptr)$/;

/**
 * Go literals of `type`, few and varied, first the plainest (inputs vary one parameter at a time from
 * the first of each): numbers, strings, runes and bytes by kind; slices, arrays and maps built of
 * their element's (nil and empty first); a struct of the package from its fields; a pointer to one;
 * any other type its zero value, `*new(T)`, which compiles for every type.
 */
export function goLiteralsOf(type: string, structs: ReadonlyMap<string, Unit>, depth = 0): string[] {
  const t = type.trim();
  if (INT_TYPES.test(t)) return t === 'int' ? INTS : INTS.map((v) => `${t}(${v})`);
  if (UINT_TYPES.test(t)) return UINTS.map((v) => (t === 'uint' ? `uint(${v})` : `${t}(${v})`));
  if (t === 'float64') return FLOATS;
  if (t === 'float32') return FLOATS.map((v) => `float32(${v})`);
  if (t === 'string') return STRINGS;
  if (t === 'bool') return ['true', 'false'];
  if (t === 'rune' || t === 'int32') return RUNES;
  if (t === 'byte' || t === 'uint8') return BYTES.map((v) => `byte(${v})`);
  if (t === 'error') return ['nil'];
  if (t === 'any' || t === 'interface{}') return ['nil', '1', '"a"', '[]int{1, 2}'];
  if (depth > 2) return [`*new(${t})`];
  const slice = /^\[\](.+)$/.exec(t);
  if (slice) {
    const items = goLiteralsOf(slice[1]!, structs, depth + 1);
    const [a = `*new(${slice[1]})`, b = a, c = b] = items.slice(1).length > 1 ? items.slice(1) : items;
    return ['nil', `${t}{}`, `${t}{${a}}`, `${t}{${a}, ${b}}`, `${t}{${b}, ${a}, ${c}, ${a}}`];
  }
  const array = /^\[(\d+)\](.+)$/.exec(t);
  if (array) {
    const items = goLiteralsOf(array[2]!, structs, depth + 1);
    return [`${t}{}`, `${t}{${Array.from({ length: Math.min(Number(array[1]), 8) }, (_, i) => items[(i + 1) % items.length]).join(', ')}}`];
  }
  const map = /^map\[([^\]]+)\](.+)$/.exec(t);
  if (map) {
    const keys = goLiteralsOf(map[1]!, structs, depth + 1);
    const values = goLiteralsOf(map[2]!, structs, depth + 1);
    const [k1 = keys[0], k2 = keys[1] ?? k1] = keys.slice(1);
    const [v1 = values[0], v2 = values[1] ?? v1] = values.slice(1);
    return ['nil', `${t}{}`, `${t}{${k1}: ${v1}}`, ...(k1 === k2 ? [] : [`${t}{${k1}: ${v1}, ${k2}: ${v2}}`])];
  }
  const pointer = /^\*(\w+)$/.exec(t);
  if (pointer && structs.has(pointer[1]!)) return ['nil', ...structLiterals(pointer[1]!, structs, depth + 1).map((s) => `&${s}`)];
  if (structs.has(t)) return structLiterals(t, structs, depth + 1);
  if (t === 'time.Duration') return DURATIONS;
  // a named type (`Unit`, `pkg.Level`): its zero value, then conversions of numbers and strings;
  // those its underlying type refuses are dropped by the compiler, one round for them all
  if (/^(?:\w+\.)?\w+$/.test(t)) return [`*new(${t})`, ...['1', '2', '7', '100', '-1', '"a"', '"abc"'].map((v) => `${t}(${v})`)];
  return [`*new(${t})`];
}

/**
 * Composite literals of a struct of the package (`Point{X: 1, Y: 2}`): its zero value first, then
 * each field given varied values; a generic struct with every type parameter `int`.
 */
export function structLiterals(name: string, structs: ReadonlyMap<string, Unit>, depth = 0): string[] {
  const unit = structs.get(name);
  if (unit === undefined) return [`*new(${name})`];
  const typeParams = unit.decorators.filter((d) => d.startsWith('typeparam:')).map((d) => d.slice('typeparam:'.length));
  const instantiate = (type: string): string => typeParams.reduce((acc, p) => acc.replace(new RegExp(`\\b${p}\\b`, 'g'), 'int'), type);
  const typeName = typeParams.length > 0 ? `${name}[${typeParams.map(() => 'int').join(', ')}]` : name;
  const fields = unit.params.filter((p) => p.annotation !== null && /^\p{Lu}|^[a-z]/u.test(p.name) && p.kind === 'keyword-only');
  if (fields.length === 0) return [`${typeName}{}`];
  const values = fields.map((f) => goLiteralsOf(instantiate(f.annotation!), structs, depth + 1));
  const literal = (pick: (k: number) => number): string => `${typeName}{${fields.map((f, k) => `${f.name}: ${values[k]![pick(k) % values[k]!.length]}`).join(', ')}}`;
  return [...new Set([`${typeName}{}`, literal(() => 1), literal((k) => k + 2), literal((k) => 3 + 2 * k)])];
}

/** Inputs from the repository's own calls of the unit whose every argument is a literal (`TestX`'s calls count as tests'). */
export function callSiteInputs(unit: Unit): GoInput[] {
  const variadic = unit.params.some((p) => p.kind === 'var-positional');
  return unit.callSites
    .filter((s) => s.allLiteral && (variadic ? s.argumentTexts.length >= unit.params.length - 1 : s.argumentTexts.length === unit.params.length))
    .map((s) => ({ args: s.argumentTexts, source: s.file.endsWith('_test.go') ? 'repo-test' : 'call-site' }));
}

/**
 * The inputs a Go target is recorded on: the repository's literal calls first, then from the
 * parameters' types the first literal of each, each parameter varied alone through its literals,
 * and seeded combinations, up to `max`, without repeats.
 */
export function goInputs(unit: Unit, structs: ReadonlyMap<string, Unit>, seed: number, max: number): GoInput[] {
  const out: GoInput[] = [];
  const seen = new Set<string>();
  const add = (input: GoInput): void => {
    const key = JSON.stringify(input.args);
    if (seen.has(key) || out.length >= max) return;
    seen.add(key);
    out.push(input);
  };
  for (const input of callSiteInputs(unit)) add(input);
  const params: Param[] = unit.params;
  const lists = params.map((p) => (p.kind === 'var-positional' ? [] : goLiteralsOf(p.annotation ?? 'any', structs)));
  if (lists.length === 0) {
    add({ args: [], source: 'type-hint' });
    return out;
  }
  const base = lists.map((l) => l[0]).filter((v): v is string => v !== undefined);
  add({ args: base, source: 'type-hint' });
  lists.forEach((list, k) => {
    for (const value of list.slice(1)) add({ args: base.map((b, j) => (j === k ? value : b)), source: 'type-hint' });
  });
  const random = createRandom(seed);
  for (let tries = 0; tries < max * 4 && out.length < max; tries += 1) {
    add({ args: lists.filter((l) => l.length > 0).map((l) => l[Math.floor(random() * l.length)]!), source: 'type-hint' });
  }
  return out;
}
