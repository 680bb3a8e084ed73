/** A Rust type name as `std::any::type_name` writes it, its paths dropped (`core::option::Option<alloc::string::String>` → `Option<String>`). */
export function shortRustType(type: string): string {
  return type.replace(/(?:[A-Za-z_]\w*::)+/g, '');
}

/**
 * A Rust codec value (runtime/codemidas_codec.rs.txt: `{"t": "rust", "type", "v"}` with `v` the
 * `{:?}` text, or an input `{"t": "rust", "v": <source>}`) as people read it: its text.
 */
export function rustValueText(tagged: unknown): string {
  if (tagged === null || typeof tagged !== 'object') return String(tagged);
  const t = tagged as { t?: string; type?: string; v?: unknown };
  if (t.t === 'rust') return String(t.v);
  return `<${shortRustType(t.type ?? 'value')}>`;
}
