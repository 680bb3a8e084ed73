import type { Action, ActionKind } from '../episodes/types.js';

const TOOL_NAMES: readonly ActionKind[] = ['shell', 'read_file', 'write_file', 'edit', 'submit'];

/** The fields each tool takes: name → [type, required]. */
const FIELDS: Record<ActionKind, Record<string, ['string' | 'integer', boolean]>> = {
  shell: { command: ['string', true], timeout_ms: ['integer', false] },
  read_file: { path: ['string', true], offset: ['integer', false], limit: ['integer', false] },
  write_file: { path: ['string', true], content: ['string', true] },
  edit: { path: ['string', true], old_text: ['string', true], new_text: ['string', true] },
  submit: {},
};

export type ParsedToolCall = { ok: true; action: Action } | { ok: false; error: string };

/**
 * A model's tool call → an action, or the error to hand back to the model as the tool's answer
 * (malformed JSON, an unknown tool, a missing or mistyped argument) so it can correct itself.
 */
export function toolCallToAction(name: string, argumentsText: string): ParsedToolCall {
  if (!(TOOL_NAMES as readonly string[]).includes(name)) {
    return { ok: false, error: `error: unknown tool '${name}'; the tools are ${TOOL_NAMES.join(', ')}` };
  }
  const kind = name as ActionKind;
  let args: unknown;
  const text = argumentsText.trim();
  if (text === '') {
    args = {};
  } else {
    try {
      args = JSON.parse(text);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      return { ok: false, error: `error: the arguments of ${name} are not valid JSON (${why}); send one JSON object, e.g. ${example(kind)}` };
    }
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return { ok: false, error: `error: the arguments of ${name} must be a JSON object, e.g. ${example(kind)}` };
  }
  const record = args as Record<string, unknown>;
  const fields = FIELDS[kind];
  const problems: string[] = [];
  for (const key of Object.keys(record)) {
    if (!(key in fields)) problems.push(`unknown argument '${key}'`);
  }
  for (const [key, [type, required]] of Object.entries(fields)) {
    const value = record[key];
    if (value === undefined || value === null) {
      if (required) problems.push(`missing argument '${key}' (${type})`);
    } else if (type === 'string' ? typeof value !== 'string' : !(Number.isInteger(value) && (value as number) >= 0)) {
      problems.push(`'${key}' must be ${type === 'string' ? 'a string' : 'a non-negative integer'}`);
    }
  }
  if (kind === 'edit' && record['old_text'] === '') problems.push(`'old_text' must not be empty`);
  if (problems.length > 0) return { ok: false, error: `error: ${name}: ${problems.join('; ')}; e.g. ${example(kind)}` };

  const str = (key: string): string => record[key] as string;
  const int = (key: string): number => (record[key] as number | undefined) ?? 0;
  switch (kind) {
    case 'shell':
      return { ok: true, action: { kind, command: str('command'), timeoutMs: int('timeout_ms') } };
    case 'read_file':
      return { ok: true, action: { kind, path: str('path'), offset: int('offset'), limit: int('limit') } };
    case 'write_file':
      return { ok: true, action: { kind, path: str('path'), content: str('content') } };
    case 'edit':
      return { ok: true, action: { kind, path: str('path'), oldText: str('old_text'), newText: str('new_text') } };
    case 'submit':
      return { ok: true, action: { kind } };
  }
}

function example(kind: ActionKind): string {
  switch (kind) {
    case 'shell':
      return '{"command": "ls"}';
    case 'read_file':
      return '{"path": "README.md"}';
    case 'write_file':
      return '{"path": "a.py", "content": "..."}';
    case 'edit':
      return '{"path": "a.py", "old_text": "x = 1", "new_text": "x = 2"}';
    case 'submit':
      return '{}';
  }
}
