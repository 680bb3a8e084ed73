/**
 * A Go codec value (runtime/codemidas_codec.go.txt's tagged JSON) as Go source people read: the
 * literal that would build it where one exists (`[]string{"a"}`, `map[string]int{"a": 2}`,
 * `geom.Point{X: 1, Y: 2}`), an error as `errors.New("…")` with its type in a comment, a function or
 * channel as `<func(int) int>`.
 */
export function goValueText(tagged: unknown): string {
  if (tagged === null || typeof tagged !== 'object') return String(tagged);
  const t = tagged as { t?: string; type?: string; v?: unknown; msg?: string; b64?: string };
  const items = (): unknown[] => (Array.isArray(t.v) ? t.v : []);
  switch (t.t) {
    case 'go':
      return String(t.v);
    case 'bool':
      return String(t.v);
    case 'int':
    case 'uint':
      return t.type === 'int' ? String(t.v) : `${t.type}(${String(t.v)})`;
    case 'float': {
      const v = String(t.v);
      const text = v === '+Inf' ? 'math.Inf(1)' : v === '-Inf' ? 'math.Inf(-1)' : v === 'NaN' ? 'math.NaN()' : v === '-0' ? 'math.Copysign(0, -1)' : /[.eE]/.test(v) ? v : `${v}.0`;
      return t.type === 'float64' ? text : `${t.type}(${text})`;
    }
    case 'complex':
      return `complex(${items().map(String).join(', ')})`;
    case 'string':
      return t.b64 !== undefined ? `string([]byte{${[...Buffer.from(t.b64, 'base64')].join(', ')}})` : JSON.stringify(t.v);
    case 'nil':
      return 'nil';
    case 'slice':
    case 'array':
      return `${t.type}{${items().map(goValueText).join(', ')}}`;
    case 'map':
      return `${t.type}{${items().map((pair) => (Array.isArray(pair) ? `${goValueText(pair[0])}: ${goValueText(pair[1])}` : '?')).join(', ')}}`;
    case 'ptr':
      return `&${goValueText(t.v)}`;
    case 'struct':
      return `${t.type}{${items().map((field) => (Array.isArray(field) ? `${String(field[0])}: ${goValueText(field[1])}` : '?')).join(', ')}}`;
    case 'error':
      return `errors.New(${JSON.stringify(t.msg ?? '')}) /* ${t.type} */`;
    case 'results':
      return items().length === 0 ? '(no results)' : items().map(goValueText).join(', ');
    default:
      return `<${t.type ?? t.t ?? 'value'}>`;
  }
}
