import type { ChatClient, ChatMessage } from '../../llm/types.js';
import type { RecordedCase } from '../types.js';
import type { InputProposal, InputProposer, InputProposerInput } from '../write/spec-writer.js';
import { stableJson } from '../write/stable-json.js';
import { askModel } from './ask-model.js';
import { createCachedChatClient } from './cached-chat-client.js';
import { parseJsonAnswer } from './parse-json-answer.js';

/** The build's seed comes with each call (`InputProposerInput.seed`) and is sent as the request's seed. */
export interface LlmInputProposerOptions {
  /** Folder of cached answers (createCachedChatClient). Default: none, every call asks the model. */
  cacheDir?: string;
  /** Inputs kept per unit, at most (the first valid ones in the answer's order). Default 8. */
  maxProposals?: number;
  /** Completion token cap. Default 1500. */
  maxTokens?: number;
  /** Longest input kept, as JSON characters: a huge literal is a slow case, not a better one. Default 2000. */
  maxInputChars?: number;
}

/**
 * Tags a proposal may use: plain data only. `repr` (an expression the subject evaluates), `object`
 * and `ref` are left out: an expression written by a model is code, and those forms are for values
 * the recorder itself builds from the codebase.
 */
const DATA_TAGS = new Set(['none', 'bool', 'int', 'float', 'str', 'bytes', 'list', 'tuple', 'set', 'frozenset', 'dict']);
const MAX_DEPTH = 8;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

const SYSTEM = [
  'You propose test inputs for a Python function. Each input is run on the original code, which records what it returns or raises; you never give expected results.',
  'Aim at behaviour the existing inputs may miss: boundaries, empty and single-element values, negative numbers, each branch of the code, inputs that raise.',
  'Every value is tagged JSON: {"t": <tag>, "v": <payload>} with tags none (v null), bool (true/false), int (decimal string: "3"), float (repr string: "0.5", "nan", "inf"), str (string), bytes (base64 string), list / tuple / set / frozenset (array of tagged values), dict (array of [key, value] pairs of tagged values).',
  'Answer with JSON only: {"inputs": [{"args": [<tagged>...], "kwargs": {"<name>": <tagged>}, "init": null}]}. For a method, "init" is {"args": [...], "kwargs": {...}} building the instance, or null to let the recorder choose one.',
].join('\n');

/**
 * An `InputProposer` that asks a model for extra inputs in the tagged form the record harness runs
 * (docs/task-format.md). The answer is parsed defensively: malformed JSON, a value that is not
 * plain tagged data, an input past `maxInputChars`: dropped, never an exception; at most
 * `maxProposals` are kept. Only inputs are read from the answer: whatever the model says a call
 * returns is ignored, and the record stage runs each proposal on the original code (source `llm`).
 */
export function createLlmInputProposer(client: ChatClient, options: LlmInputProposerOptions): InputProposer {
  const model = options.cacheDir === undefined ? client : createCachedChatClient(client, { cacheDir: options.cacheDir });
  const maxProposals = options.maxProposals ?? 8;
  const maxInputChars = options.maxInputChars ?? 2000;
  return {
    async propose(input: InputProposerInput): Promise<InputProposal[]> {
      const { unit } = input;
      const isMethod = unit.kind === 'method';
      const messages: ChatMessage[] = [
        { role: 'system', content: SYSTEM },
        {
          role: 'user',
          content: [
            `${isMethod ? 'Method' : 'Function'} \`${unit.qualname}\` in module \`${unit.module}\`. Propose up to ${maxProposals} inputs.`,
            '',
            '```python',
            input.reference?.definition ?? [unit.signature.trim(), unit.docstring ? `    """${unit.docstring}"""` : ''].filter(Boolean).join('\n'),
            '```',
            ...examplesOf(input.existing),
          ].join('\n'),
        },
      ];
      const answer = await askModel(model, messages, {
        seed: input.seed,
        maxTokens: options.maxTokens ?? 1500,
        ...(input.signal ? { signal: input.signal } : {}),
        ...(input.onFallback ? { onFallback: input.onFallback } : {}),
      });
      if (answer === null) return [];
      const raw = parseJsonAnswer(answer);
      const list = isRecord(raw) && Array.isArray(raw['inputs']) ? raw['inputs'] : Array.isArray(raw) ? raw : null;
      if (list === null) {
        input.onFallback?.('malformed-answer');
        return [];
      }
      const out: InputProposal[] = [];
      const seen = new Set<string>();
      for (const item of list) {
        if (out.length >= maxProposals) break;
        const proposal = proposalOf(item, isMethod);
        if (proposal === null) continue;
        const key = stableJson(proposal);
        if (key.length > maxInputChars || seen.has(key)) continue;
        seen.add(key);
        out.push(proposal);
      }
      if (out.length === 0 && list.length > 0) input.onFallback?.('no-valid-input');
      return out;
    },
  };
}

/** Up to three existing inputs, to show the format on the unit's own values. */
function examplesOf(existing: readonly RecordedCase[]): string[] {
  if (existing.length === 0) return [];
  const shown = existing.slice(0, 3).map((c) => JSON.stringify({ args: c.args, kwargs: c.kwargs, init: c.init }));
  return ['', 'Inputs already recorded (propose different ones):', ...shown];
}

function proposalOf(item: unknown, isMethod: boolean): InputProposal | null {
  if (!isRecord(item)) return null;
  const call = argumentsOf(item);
  if (call === null) return null;
  let init: InputProposal['init'] = null;
  // a function has no instance: an init the model wrote for one is ignored, not a reason to drop the input
  if (isMethod && item['init'] !== undefined && item['init'] !== null) {
    if (!isRecord(item['init'])) return null;
    init = argumentsOf(item['init']);
    if (init === null) return null;
  }
  return { args: call.args, kwargs: call.kwargs, init };
}

function argumentsOf(item: Record<string, unknown>): { args: unknown[]; kwargs: Record<string, unknown> } | null {
  const args = item['args'] ?? [];
  const kwargs = item['kwargs'] ?? {};
  if (!Array.isArray(args) || !args.every((a) => isTagged(a, 0))) return null;
  if (!isRecord(kwargs)) return null;
  const entries = Object.entries(kwargs);
  if (!entries.every(([k, v]) => IDENTIFIER.test(k) && isTagged(v, 0))) return null;
  return { args, kwargs: Object.fromEntries(entries) };
}

/** A plain tagged value (DATA_TAGS), well formed at every depth. */
function isTagged(value: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH || !isRecord(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 2 || !('t' in value) || !('v' in value)) return false;
  const { t, v } = value;
  if (typeof t !== 'string' || !DATA_TAGS.has(t)) return false;
  switch (t) {
    case 'none':
      return v === null;
    case 'bool':
      return typeof v === 'boolean';
    case 'int':
      return typeof v === 'string' && /^-?\d{1,100}$/.test(v);
    case 'float':
      return typeof v === 'string' && /^(-?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf)|nan)$/.test(v);
    case 'str':
      return typeof v === 'string';
    case 'bytes':
      return typeof v === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(v) && v.length % 4 === 0;
    case 'dict':
      return Array.isArray(v) && v.every((pair) => Array.isArray(pair) && pair.length === 2 && isTagged(pair[0], depth + 1) && isTagged(pair[1], depth + 1));
    default:
      return Array.isArray(v) && v.every((x) => isTagged(x, depth + 1));
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
