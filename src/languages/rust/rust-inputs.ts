import { createRandom } from '../../pipeline/select/seeded-order.js';
import type { Unit } from '../construction-types.js';
import { CONCRETE_PARAMS_DECORATOR, CONST_DECORATOR, RUST_TESTS_CALLER, isRustTestFile } from './parse-rust-units.js';

/** One recorded input of a Rust target: each argument as Rust source in the target's module, and where it came from. */
export interface RustInput {
  args: string[];
  source: string;
}

const INTS = ['0', '1', '-1', '2', '7', '10', '42', '-5', '100', '1000000'];
const UINTS = ['0', '1', '2', '7', '10', '42', '255', '1000'];
const FLOATS = ['0.0', '1.0', '1.5', '-2.25', '0.1', '100.0', '-0.5', '3.75'];
const STRINGS = ['""', '"a"', '"abc"', '"Hello, World!"', '"  two  words  "', '"héllo"', '"a-b_c"', '"123"', '"A B a"'];
const CHARS = ["'a'", "'Z'", "'é'", "' '", "'1'"];

const SIGNED = /^(?:i8|i16|i32|i64|i128|isize)$/;
const UNSIGNED = /^(?:u8|u16|u32|u64|u128|usize)$/;

/** The text inside the outermost `<…>` of `Name<…>`, or null. */
function genericArgument(type: string, name: string): string | null {
  const m = new RegExp(`^(?:std::\\w+::)?${name}\\s*<(.*)>$`, 's').exec(type);
  return m ? m[1]!.trim() : null;
}

/** Splits `A, B<C, D>` at its top-level commas. */
function splitTypes(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if ('<([{'.includes(ch)) depth += 1;
    else if ('>)]}'.includes(ch)) depth -= 1;
    else if (ch === ',' && depth === 0) {
      out.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  const last = text.slice(from).trim();
  return last === '' ? out : [...out, last];
}

/** Sequences of `items` for a list literal: empty, one, two, four (varied order). */
function sequences(items: string[]): string[][] {
  const [a, b = a, c = b] = items.length > 2 ? items.slice(1) : items;
  if (a === undefined) return [[]];
  return [[], [a], [a, b!], [b!, a, c!, a]];
}

/**
 * Rust literals of `type`, few and varied, the plainest first (inputs vary one parameter at a time
 * from the first of each): integers, floats, bools, chars and strings by type (`&str` as a string
 * literal, `String` as `String::from(…)`); `Vec<T>` as `vec![…]`, `&[T]` and `&Vec<T>` as
 * references to them, `&mut` ones as mutable references, `[T; N]` arrays; `Option<T>` as `None`
 * and `Some(…)`; tuples; any other type none (a target with such a parameter is recorded on the
 * repository's calls only).
 */
const NO_STRUCTS: ReadonlyMap<string, readonly string[]> = new Map();

export function rustLiteralsOf(type: string, depth = 0, structs: ReadonlyMap<string, readonly string[]> = NO_STRUCTS): string[] {
  const t = type.trim().replace(/\s+/g, ' ');
  if (depth > 3) return [];
  if (SIGNED.test(t)) return t === 'i8' ? INTS.slice(0, 9) : INTS;
  if (UNSIGNED.test(t)) return t === 'u8' ? UINTS.slice(0, 7) : UINTS;
  if (t === 'f64' || t === 'f32') return FLOATS;
  if (t === 'bool') return ['true', 'false'];
  if (t === 'char') return CHARS;
  if (t === '&str' || t === "&'static str") return STRINGS;
  if (t === 'String') return STRINGS.map((s) => `String::from(${s})`);
  if (t === '&String') return STRINGS.map((s) => `&String::from(${s})`);
  const mutRef = /^&mut (.+)$/.exec(t);
  if (mutRef) {
    const inner = mutRef[1]!;
    const slice = /^\[(.+)\]$/.exec(inner);
    if (slice) return sequences(rustLiteralsOf(slice[1]!, depth + 1, structs)).map((items) => `&mut [${items.join(', ')}]`);
    return rustLiteralsOf(inner, depth + 1, structs).map((v) => `&mut ${v}`);
  }
  const ref = /^&(?:'\w+ )?(.+)$/.exec(t);
  if (ref) {
    const inner = ref[1]!;
    const slice = /^\[([^;]+)\]$/.exec(inner);
    if (slice) return sequences(rustLiteralsOf(slice[1]!, depth + 1, structs)).map((items) => `&[${items.join(', ')}]`);
    return rustLiteralsOf(inner, depth + 1, structs).map((v) => `&${v}`);
  }
  const vec = genericArgument(t, 'Vec');
  if (vec !== null) return sequences(rustLiteralsOf(vec, depth + 1, structs)).map((items) => `vec![${items.join(', ')}]`);
  const array = /^\[(.+); *(\d+)\]$/.exec(t);
  if (array) {
    const items = rustLiteralsOf(array[1]!, depth + 1, structs);
    const n = Number(array[2]);
    if (items.length === 0) return [];
    // a long array as one repeated value (`[0; 256]`: its item type must be Copy, as a number is)
    if (n > 16) return items.slice(0, 3).map((v) => `[${v}; ${n}]`);
    return [0, 1].map((shift) => `[${Array.from({ length: n }, (_, i) => items[(i + shift) % items.length]).join(', ')}]`);
  }
  const option = genericArgument(t, 'Option');
  if (option !== null) return ['None', ...rustLiteralsOf(option, depth + 1, structs).slice(0, 4).map((v) => `Some(${v})`)];
  const tuple = /^\((.*)\)$/.exec(t);
  if (tuple) {
    const parts = splitTypes(tuple[1]!).map((p) => rustLiteralsOf(p, depth + 1, structs));
    if (parts.length === 0 || parts.some((p) => p.length === 0)) return [];
    return [0, 1, 2].map((k) => `(${parts.map((p) => p[(k + parts.indexOf(p)) % p.length]).join(', ')}${parts.length === 1 ? ',' : ''})`);
  }
  // a struct of the crate: the receivers its methods get (its constructors' calls, a struct literal)
  const own = /^[\w:]+$/.test(t) ? structs.get(t.split('::').at(-1)!) : undefined;
  if (own !== undefined) return [...own];
  return [];
}

/** Whether a call site is one of the repository's tests (`#[cfg(test)]` modules, `tests/`). */
export function isRepoTestSite(site: { file: string; caller: string }): boolean {
  return site.caller === RUST_TESTS_CALLER || isRustTestFile(site.file);
}

/** Inputs from the repository's own calls of the unit whose every argument is a literal (its tests' count as `repo-test`). */
export function callSiteInputs(unit: Unit): RustInput[] {
  return unit.callSites
    .filter((s) => s.allLiteral && s.argumentTexts.length === unit.params.length)
    .map((s) => ({ args: s.argumentTexts, source: isRepoTestSite(s) ? 'repo-test' : 'call-site' }));
}

/**
 * The inputs a Rust target is recorded on: the repository's literal calls first, then from the
 * parameters' types the first literal of each, each parameter varied alone through its literals
 * (again from the second literal of each, for two or more parameters), and seeded combinations, up to `max`, without repeats. A parameter of a type without literals
 * leaves only the repository's calls.
 */
export function rustInputs(unit: Unit, seed: number, max: number, structs: ReadonlyMap<string, readonly string[]> = NO_STRUCTS): RustInput[] {
  const out: RustInput[] = [];
  const seen = new Set<string>();
  const add = (input: RustInput): void => {
    const key = JSON.stringify(input.args);
    if (seen.has(key) || out.length >= max) return;
    seen.add(key);
    out.push(input);
  };
  for (const input of callSiteInputs(unit)) add(input);
  const lists = paramTypesOf(unit).map((t) => rustLiteralsOf(t ?? '', 0, structs));
  if (lists.length === 0) {
    add({ args: [], source: 'type-hint' });
    return out;
  }
  if (lists.some((l) => l.length === 0)) return out;
  // one parameter varied at a time from the plainest values (`0`, `""`), then from the next ones
  // (`1`, `"a"`): a zero elsewhere hides much (`a / b` with `b = 0` returns early)
  for (const at of lists.length > 1 ? [0, 1] : [0]) {
    const base = lists.map((l) => l[Math.min(at, l.length - 1)]!);
    add({ args: base, source: 'type-hint' });
    lists.forEach((list, k) => {
      for (const value of list) add({ args: base.map((b, j) => (j === k ? value : b)), source: 'type-hint' });
    });
  }
  const random = createRandom(seed);
  for (let tries = 0; tries < max * 4 && out.length < max; tries += 1) {
    add({ args: lists.map((l) => l[Math.floor(random() * l.length)]!), source: 'type-hint' });
  }
  return out;
}

/** A unit's parameter types as the driver binds them: a generic function's with its type parameters' concrete types put in (rust-generics.ts). */
export function paramTypesOf(unit: Unit): (string | null)[] {
  const concrete = unit.decorators.find((d) => d.startsWith(CONCRETE_PARAMS_DECORATOR));
  if (concrete !== undefined) {
    try {
      const types: unknown = JSON.parse(concrete.slice(CONCRETE_PARAMS_DECORATOR.length));
      if (Array.isArray(types) && types.length === unit.params.length) return types.map(String);
    } catch {
      // a decorator this parser did not write: the annotations stand
    }
  }
  return unit.params.map((p) => p.annotation);
}

/**
 * The receivers a method of `type` is called on (Rust source in its module): the repository's
 * literal calls of the type's associated functions that return it (`Point::new(1, 2)`), its public
 * constants (`crate::config::STANDARD`, parse-rust-units.ts), a struct
 * literal from its fields' literals where they have some (`Point { x: 1, y: 2 }`),
 * `Type::default()` where the struct derives Default, and those functions called with their
 * parameters' literals (not generic or unsafe ones); at most `max`.
 */
export function rustReceivers(type: string, units: readonly Unit[], max = 4): string[] {
  const out = new Set<string>();
  const makers = units.filter(
    (u) =>
      u.qualname.split('.')[0] === type &&
      u.decorators.includes('static') &&
      !u.decorators.includes('generic') &&
      !u.decorators.includes('unsafe') &&
      ((u.returnAnnotation ?? '').trim() === 'Self' || (u.returnAnnotation ?? '').trim() === type),
  );
  for (const u of makers) {
    for (const s of u.callSites) if (s.allLiteral && s.argumentTexts.length === u.params.length) out.add(`${type}::${u.qualname.split('.')[1]}(${s.argumentTexts.join(', ')})`);
  }
  const struct = units.find((u) => u.kind === 'class' && u.qualname === type);
  // its public constants (`crate::config::STANDARD`)
  for (const d of struct?.decorators ?? []) if (d.startsWith(CONST_DECORATOR)) out.add(d.slice(CONST_DECORATOR.length));
  if (struct !== undefined && struct.params.length > 0) {
    const values = struct.params.map((p) => rustLiteralsOf(p.annotation ?? ''));
    if (values.every((v) => v.length > 0)) {
      for (const pick of [(k: number) => k + 1, (k: number) => 2 * k + 3, () => 0]) out.add(`${type} { ${struct.params.map((p, k) => `${p.name}: ${values[k]![pick(k) % values[k]!.length]}`).join(', ')} }`);
    }
  }
  if (struct?.decorators.includes('derive:Default')) out.add(`${type}::default()`);
  // then (a struct whose fields have no literals has none of those) each such function called with its parameters' literals: the first of each, and two varied picks
  for (const u of makers) {
    const values = u.params.map((p) => rustLiteralsOf(p.annotation ?? ''));
    if (values.some((v) => v.length === 0)) continue;
    for (const pick of [() => 0, (k: number) => k + 1, (k: number) => 2 * k + 3]) out.add(`${type}::${u.qualname.split('.')[1]}(${values.map((v, k) => v[pick(k) % v.length]).join(', ')})`);
  }
  return [...out].slice(0, max);
}
