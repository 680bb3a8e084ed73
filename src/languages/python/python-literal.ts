/**
 * Tagged values (docs/task-format.md) rendered as Python source for people: the prompt's examples
 * and the readable pytest file. The hidden cases stay in cases.json; this is only a view of them.
 */

interface Tagged {
  t: string;
  v: unknown;
  imports?: string[];
}

function isTagged(value: unknown): value is Tagged {
  return typeof value === 'object' && value !== null && typeof (value as Tagged).t === 'string' && 'v' in value;
}

/** Python's `repr` of a str: single quotes unless the text holds one and no double quote. */
export function pythonStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

function bytesRepr(base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  let out = "b'";
  for (const b of bytes) {
    if (b === 0x5c) out += '\\\\';
    else if (b === 0x27) out += "\\'";
    else if (b === 0x0a) out += '\\n';
    else if (b === 0x0d) out += '\\r';
    else if (b === 0x09) out += '\\t';
    else if (b < 0x20 || b >= 0x7f) out += `\\x${b.toString(16).padStart(2, '0')}`;
    else out += String.fromCharCode(b);
  }
  return `${out}'`;
}

function floatSource(text: string): string {
  if (text === 'nan') return "float('nan')";
  if (text === 'inf') return "float('inf')";
  if (text === '-inf') return "float('-inf')";
  return text;
}

const PYTHON_KEYWORDS = new Set(['False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue', 'def', 'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import', 'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while', 'with', 'yield']);

/**
 * A call's keyword arguments as source, sorted: `name=value`, and the keys no keyword argument can
 * spell (`'1'`, `'a b'`, reaching a **kwargs parameter) unpacked at the end, `**{'1': 1}`, as the
 * recorder's own call source writes them (common.call_args_source).
 */
export function keywordArguments(kwargs: Record<string, unknown>): string[] {
  const keys = Object.keys(kwargs).sort();
  const plain = (k: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) && !PYTHON_KEYWORDS.has(k);
  const out = keys.filter(plain).map((k) => `${k}=${taggedToPython(kwargs[k])}`);
  const odd = keys.filter((k) => !plain(k)).map((k) => `${pythonStrRepr(k)}: ${taggedToPython(kwargs[k])}`);
  if (odd.length > 0) out.push(`**{${odd.join(', ')}}`);
  return out;
}

/**
 * Python source of a tagged value. Objects render as `_obj('<module>.<QualName>', {...state})`,
 * classes and functions as `_ref('<module>', '<QualName>')`, helpers the readable template defines;
 * `repr` inputs render as their expression.
 */
export function taggedToPython(value: unknown, shown: 'readable' | 'prompt' = 'readable'): string {
  if (!isTagged(value)) return repr(value);
  const inner = (x: unknown): string => taggedToPython(x, shown);
  const items = (): string[] => (Array.isArray(value.v) ? value.v.map(inner) : []);
  switch (value.t) {
    case 'none':
      return 'None';
    case 'bool':
      return value.v === true ? 'True' : 'False';
    case 'int':
      return String(value.v);
    case 'float':
      return floatSource(String(value.v));
    case 'str':
      return pythonStrRepr(String(value.v));
    case 'bytes':
      return bytesRepr(String(value.v));
    case 'list':
      return `[${items().join(', ')}]`;
    case 'tuple': {
      const parts = items();
      return parts.length === 1 ? `(${parts[0]},)` : `(${parts.join(', ')})`;
    }
    case 'set': {
      const parts = items();
      return parts.length === 0 ? 'set()' : `{${parts.join(', ')}}`;
    }
    case 'frozenset':
      return `frozenset({${items().join(', ')}})`;
    case 'dict': {
      const pairs = Array.isArray(value.v) ? (value.v as unknown[][]) : [];
      return `{${pairs.map((p) => `${inner(p[0])}: ${inner(p[1])}`).join(', ')}}`;
    }
    case 'object': {
      const o = (value.v ?? {}) as { type?: string; state?: unknown };
      const held = shown === 'prompt' ? inMemoryFileHeld(o) : undefined;
      // an in-memory file, in a prompt: as the call that makes one holding the same (codec.py encode)
      if (held !== undefined) return `io.${o.type === '_io.StringIO' ? 'StringIO' : 'BytesIO'}(${inner(held)})`;
      return `_obj(${pythonStrRepr(String(o.type ?? '?'))}, ${inner(o.state)})`;
    }
    case 'ref': {
      const [module, qualname] = Array.isArray(value.v) ? value.v.map(String) : ['?', '?'];
      return `_ref(${pythonStrRepr(module ?? '?')}, ${pythonStrRepr(qualname ?? '?')})`;
    }
    case 'repr':
      return String(value.v);
    case 'back':
      // a cycle: the value n levels up the structure (codec.py encode)
      return `_back(${Number(value.v)})`;
    default:
      return repr(value);
  }
}

/** What an encoded `io.StringIO` / `io.BytesIO` holds (its state's one `value`), or undefined for any other object. */
function inMemoryFileHeld(o: { type?: string; state?: unknown }): unknown {
  if (o.type !== '_io.StringIO' && o.type !== '_io.BytesIO') return undefined;
  const state = o.state as { t?: string; v?: unknown } | undefined;
  if (state?.t !== 'dict' || !Array.isArray(state.v) || state.v.length !== 1) return undefined;
  const [key, held] = state.v[0] as [{ t?: string; v?: unknown }, unknown];
  return key?.t === 'str' && key.v === 'value' ? held : undefined;
}

function repr(value: unknown): string {
  return `_raw(${pythonStrRepr(JSON.stringify(value))})`;
}

/** The imports a tagged input needs (`repr` values carry them). */
export function importsOf(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) {
    for (const v of value) importsOf(v, into);
  } else if (value !== null && typeof value === 'object') {
    const tagged = value as Tagged;
    if (tagged.t === 'repr' && Array.isArray(tagged.imports)) for (const m of tagged.imports) into.add(String(m));
    for (const v of Object.values(value)) importsOf(v, into);
  }
  return into;
}
