import type { Action, ActionKind, ToolSpec } from '../episodes/types.js';

export type ParsedToolCall = { ok: true; action: Action } | { ok: false; error: string };

/** The part of JSON Schema the server's tool specs use (src/episodes/tool-schemas.ts). */
interface PropertySchema {
  type?: string;
  minimum?: number;
  minLength?: number;
}

/**
 * A model's tool call → an action, checked against the tool schemas the episode was offered at Reset,
 * or the error to hand back to the model as the tool's answer (malformed JSON, an unknown tool, a
 * missing, unknown or mistyped argument) so it can correct itself.
 */
export function toolCallToAction(name: string, argumentsText: string, tools: readonly ToolSpec[]): ParsedToolCall {
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    return { ok: false, error: `error: unknown tool '${name}'; the tools are ${tools.map((t) => t.name).join(', ')}` };
  }
  const properties = (tool.parameters['properties'] ?? {}) as Record<string, PropertySchema>;
  const required = (tool.parameters['required'] ?? []) as string[];
  const example = JSON.stringify(Object.fromEntries(required.map((key) => [key, properties[key]?.type === 'integer' ? 0 : '...'])));
  let args: unknown;
  const text = argumentsText.trim();
  try {
    args = text === '' ? {} : JSON.parse(text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { ok: false, error: `error: the arguments of ${name} are not valid JSON (${why}); send one JSON object, e.g. ${example}` };
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return { ok: false, error: `error: the arguments of ${name} must be a JSON object, e.g. ${example}` };
  }
  const record = args as Record<string, unknown>;
  const problems = Object.keys(record)
    .filter((key) => !(key in properties))
    .map((key) => `unknown argument '${key}'`);
  for (const [key, schema] of Object.entries(properties)) {
    const value = record[key];
    if (value === undefined || value === null) {
      if (required.includes(key)) problems.push(`missing argument '${key}' (${schema.type ?? 'any'})`);
    } else if (schema.type === 'string' && (typeof value !== 'string' || value.length < (schema.minLength ?? 0))) {
      problems.push(`'${key}' must be a ${schema.minLength ? 'non-empty ' : ''}string`);
    } else if (schema.type === 'integer' && !(Number.isInteger(value) && (value as number) >= (schema.minimum ?? Number.NEGATIVE_INFINITY))) {
      problems.push(`'${key}' must be an integer${schema.minimum !== undefined ? ` >= ${schema.minimum}` : ''}`);
    }
  }
  if (problems.length > 0) return { ok: false, error: `error: ${name}: ${problems.join('; ')}; e.g. ${example}` };

  const str = (key: string): string => record[key] as string;
  const int = (key: string): number => (record[key] as number | undefined) ?? 0;
  switch (tool.name as ActionKind) {
    case 'shell':
      return { ok: true, action: { kind: 'shell', command: str('command'), timeoutMs: int('timeout_ms') } };
    case 'read_file':
      return { ok: true, action: { kind: 'read_file', path: str('path'), offset: int('offset'), limit: int('limit') } };
    case 'write_file':
      return { ok: true, action: { kind: 'write_file', path: str('path'), content: str('content') } };
    case 'edit':
      return { ok: true, action: { kind: 'edit', path: str('path'), oldText: str('old_text'), newText: str('new_text') } };
    case 'submit':
      return { ok: true, action: { kind: 'submit' } };
    default:
      return { ok: false, error: `error: tool '${name}' is offered but this agent cannot map it to an action` };
  }
}
