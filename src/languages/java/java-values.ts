/**
 * A Java codec value (runtime/codemidas_driver.java.txt's tagged JSON) as Java source people read:
 * the literal that would build it where one exists (`"abc"`, `42L`, `new int[] {1, 2}`,
 * `List.of("a")`, `Map.of("a", 1)`), an object of the library by its fields (`Vec2{x=1.0, y=2.0}`),
 * one of the JDK by its `toString` (`BigInteger[12]`).
 */
export function javaValueText(tagged: unknown): string {
  if (tagged === null || typeof tagged !== 'object') return String(tagged);
  const t = tagged as { t?: string; type?: string; v?: unknown; str?: string };
  const items = (): unknown[] => (Array.isArray(t.v) ? t.v : []);
  const simple = (name: string | undefined): string => (name ?? 'Object').split('.').at(-1)!.replace(/\$/g, '.');
  switch (t.t) {
    case 'java':
      return String(t.v);
    case 'str':
      return JSON.stringify(t.v);
    case 'int':
      return t.type === 'long' ? `${String(t.v)}L` : t.type === 'int' ? String(t.v) : `(${t.type}) ${String(t.v)}`;
    case 'float': {
      const v = String(t.v);
      const box = t.type === 'float' ? 'Float' : 'Double';
      const text = v === 'NaN' ? `${box}.NaN` : v === 'Infinity' ? `${box}.POSITIVE_INFINITY` : v === '-Infinity' ? `${box}.NEGATIVE_INFINITY` : v;
      return t.type === 'float' && !text.includes('.N') && !text.includes('_INF') ? `${text}f` : text;
    }
    case 'bool':
      return String(t.v);
    case 'char':
      return `'${String(t.v).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    case 'null':
      return 'null';
    case 'void':
      return '(nothing: void)';
    case 'enum':
      return `${simple(t.type)}.${String(t.v)}`;
    case 'array':
      return `new ${t.type ?? 'Object[]'} {${items().map(javaValueText).join(', ')}}`;
    case 'list':
      return `List.of(${items().map(javaValueText).join(', ')})`;
    case 'set':
      return `Set.of(${items().map(javaValueText).join(', ')})`;
    case 'map':
      return `Map.of(${items().map((pair) => (Array.isArray(pair) ? `${javaValueText(pair[0])}, ${javaValueText(pair[1])}` : '?')).join(', ')})`;
    case 'optional':
      return items().length === 0 ? 'Optional.empty()' : `Optional.of(${javaValueText(items()[0])})`;
    case 'obj':
      if (t.str !== undefined) return `${simple(t.type)}[${t.str}]`;
      return `${simple(t.type)}{${items().map((field) => (Array.isArray(field) ? `${String(field[0])}=${javaValueText(field[1])}` : '?')).join(', ')}}`;
    default:
      return `<${t.type ?? t.t ?? 'value'}>`;
  }
}
