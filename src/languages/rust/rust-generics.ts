import type { Node } from 'web-tree-sitter';

/**
 * Concrete types for a generic Rust function's type parameters, chosen from their bounds, as the
 * Java plugin gives a type variable `Integer` or `String`: the driver binds each argument to a
 * variable of the parameter's type with the choice put in, and the call infers the rest.
 *
 * - `AsRef<str>`, `Into<String>`, `Borrow<str>`, `AsRef<Path>`, `AsRef<OsStr>` → `&str`
 * - `AsRef<[u8]>` → `&[u8]`
 * - `Into<usize>`, `Into<u64>`, `Into<u32>` → `u8`; `Into<f64>` → `f32`; `Into<i64>` → `i32`
 * - only std traits numbers have (`Copy`, `Clone`, `Debug`, `Display`, `ToString`, `PartialEq`,
 *   `PartialOrd`, `Ord`, `Eq`, `Hash`, `Default`, `Add`, `Sub`, `Mul`, `Send`, `Sync`, `Sized`) → `i64`
 * - `IntoIterator<Item = X>` with X chosen the same way (or a parameter chosen so) → `Vec<X>`
 *
 * A parameter bounded by anything else (a trait of the crate, a closure, `FromStr`), a const
 * generic, a where clause on something other than a plain parameter, or a type parameter that no
 * parameter's type names (the call could not infer it) leaves the function generic: null.
 * `impl Trait` parameters are chosen the same way.
 */
export function chooseTypeParameters(node: Node): { typeVars: Record<string, string>; params: string[] } | null {
  const bounds = new Map<string, string[]>();
  const typeParams = node.childForFieldName('type_parameters');
  for (const p of typeParams?.namedChildren ?? []) {
    if (p === null || p.type === 'lifetime' || p.type === 'lifetime_parameter') continue;
    if (p.type === 'type_identifier') bounds.set(p.text, []);
    else if (p.type === 'constrained_type_parameter') {
      const left = p.childForFieldName('left')?.text;
      if (left === undefined) return null;
      bounds.set(left, splitBounds(p.childForFieldName('bounds')?.text ?? ''));
    } else return null; // a const generic, a default
  }
  const where = node.namedChildren.find((c) => c?.type === 'where_clause');
  for (const predicate of where?.namedChildren ?? []) {
    if (predicate === null || predicate.type !== 'where_predicate') continue;
    const left = predicate.childForFieldName('left')?.text ?? '';
    if (!bounds.has(left)) return null; // `&'a I: IntoIterator`, a lifetime bound, another type
    bounds.get(left)!.push(...splitBounds(predicate.childForFieldName('bounds')?.text ?? ''));
  }
  const chosen: Record<string, string> = {};
  // a parameter whose Item names another (`I: IntoIterator<Item = E>`) is chosen after it
  for (let round = 0; round < 3; round += 1) {
    for (const [name, list] of bounds) {
      if (chosen[name] !== undefined) continue;
      const type = concreteFor(list, chosen);
      if (type !== null) chosen[name] = type;
    }
  }
  if (Object.keys(chosen).length !== bounds.size) return null;
  const parameters = node.childForFieldName('parameters');
  const params: (string | null)[] = [];
  for (const p of parameters?.namedChildren ?? []) {
    if (p === null || p.type !== 'parameter') continue;
    const type = p.childForFieldName('type')?.text ?? null;
    params.push(type === null ? null : substitute(type, chosen));
  }
  if (params.some((t) => t === null || /\bimpl\b/.test(t))) return null;
  // each type parameter is named by a parameter's type, or by the bounds of one that is (`I: IntoIterator<Item = E>`)
  const names = (text: string): string[] => [...bounds.keys()].filter((name) => new RegExp(`(?<![\\w])${name}(?![\\w])`).test(text));
  const inferred = new Set(names(parameters?.text ?? ''));
  for (const name of [...inferred]) for (const other of names((bounds.get(name) ?? []).join(' '))) inferred.add(other);
  if ([...bounds.keys()].some((name) => !inferred.has(name))) return null;
  return { typeVars: chosen, params: params as string[] };
}

const STRINGISH = /^(?:AsRef<\s*(?:str|(?:std::)?(?:path::)?Path|(?:std::)?(?:ffi::)?OsStr)\s*>|Into<\s*String\s*>|Borrow<\s*str\s*>)$/;
const NUMBERISH = new Set(['Copy', 'Clone', 'Debug', 'Display', 'ToString', 'PartialEq', 'PartialOrd', 'Ord', 'Eq', 'Hash', 'Default', 'Add', 'Sub', 'Mul', 'Send', 'Sync', 'Sized', '?Sized']);

function splitBounds(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '<') depth += 1;
    if (ch === '>') depth -= 1;
    if (ch === '+' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim() !== '') out.push(current.trim());
  return out.map((b) => b.replace(/^:\s*/, '').replace(/^(?:std|core)::(?:\w+::)*/, '').replace(/^'\w+$/, 'Sized'));
}

/** The concrete type for a parameter with these bounds, given the ones chosen so far; null when none fits. */
function concreteFor(list: readonly string[], chosen: Readonly<Record<string, string>>): string | null {
  const traits = list.map((b) => b.replace(/\s+/g, ' ').trim()).filter((b) => b !== '');
  if (traits.some((b) => STRINGISH.test(b))) return traits.every((b) => STRINGISH.test(b) || NUMBERISH.has(b.replace(/<.*$/, ''))) ? '&str' : null;
  if (traits.some((b) => /^AsRef<\s*\[u8\]\s*>$/.test(b))) return '&[u8]';
  const into = traits.map((b) => /^Into<\s*(\w+)\s*>$/.exec(b)?.[1]).find((t) => t !== undefined);
  if (into !== undefined) return { usize: 'u8', u64: 'u8', u32: 'u8', u16: 'u8', f64: 'f32', i64: 'i32', i32: 'i16' }[into] ?? null;
  const iter = traits.map((b) => /^IntoIterator<\s*Item\s*=\s*(.+)>$/.exec(b)?.[1]?.trim()).find((t) => t !== undefined);
  if (iter !== undefined) {
    const item = chosen[iter] ?? (/^(?:i|u)(?:8|16|32|64|size)$|^char$|^bool$|^f(?:32|64)$/.test(iter) ? iter : undefined);
    return item === undefined ? null : `Vec<${item}>`;
  }
  if (traits.every((b) => NUMBERISH.has(b.replace(/<.*$/, '')) && !/^(?:Add|Sub|Mul|PartialEq|PartialOrd)<(?!\s*Self\s*>)/.test(b))) return 'i64';
  return null;
}

/** `type` with each chosen parameter (a whole word) and each `impl Trait` replaced by its concrete type. */
function substitute(type: string, chosen: Readonly<Record<string, string>>): string {
  let out = type.replace(/impl\s+([^,()]+)$/, (whole, bounds: string) => concreteFor(splitBounds(bounds), chosen) ?? whole);
  for (const [name, concrete] of Object.entries(chosen)) out = out.replace(new RegExp(`(?<![\\w])${name}(?![\\w])`, 'g'), concrete);
  // `&'a T` → `&T`: the driver's variables have no named lifetimes
  return out.replace(/&'\w+\s*/g, '&');
}
