import type { LanguagePlugin, ValueFormat } from '../../languages/language.js';
import type { ChatClient, ChatMessage } from '../../llm/types.js';
import type { RecordedCase } from '../types.js';
import type { InputProposal, InputProposer, InputProposerInput } from '../write/spec-writer.js';
import { stableJson } from '../write/stable-json.js';
import { askModel } from './ask-model.js';
import { createCachedChatClient } from './cached-chat-client.js';
import { parseJsonAnswer } from './parse-json-answer.js';

/** What the proposer needs of the language plugin: its name, its code fences, its value format. */
export type ProposerLanguage = Pick<LanguagePlugin, 'displayName' | 'codeFence' | 'values'>;

/** The build's seed comes with each call (`InputProposerInput.seed`) and is sent as the request's seed. */
export interface LlmInputProposerOptions {
  /** The language of the code (its plugin). */
  language: ProposerLanguage;
  /** Folder of cached answers (createCachedChatClient). Default: none, every call asks the model. */
  cacheDir?: string;
  /** Inputs kept per unit, at most (the first valid ones in the answer's order). Default 8. */
  maxProposals?: number;
  /** Completion token cap. Default 1500. */
  maxTokens?: number;
  /** Longest input kept, as JSON characters: a huge literal is a slow case, not a better one. Default 2000. */
  maxInputChars?: number;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The system message: what to propose, in the language's value format. */
function systemMessage(language: ProposerLanguage): string {
  return [
    `You propose test inputs for a ${language.displayName} function. Each input is run on the original code, which records what it returns or raises; you never give expected results.`,
    'Aim at behaviour the existing inputs may miss: boundaries, empty and single-element values, negative numbers, each branch of the code, inputs that raise.',
    language.values.description,
    language.values.keywordArguments
      ? 'Answer with JSON only: {"inputs": [{"args": [<tagged>...], "kwargs": {"<name>": <tagged>}, "init": null}]}. For a method, "init" is {"args": [...], "kwargs": {...}} building the instance, or null to let the recorder choose one.'
      : 'Answer with JSON only: {"inputs": [{"args": [<tagged>...], "init": null}]}. For a method, "init" is {"args": [...]} building the instance (the constructor\'s arguments), or null to let the recorder choose one.',
  ].join('\n');
}

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
        { role: 'system', content: systemMessage(options.language) },
        {
          role: 'user',
          content: [
            `${isMethod ? 'Method' : 'Function'} \`${unit.qualname}\` in module \`${unit.module}\`. Propose up to ${maxProposals} inputs.`,
            '',
            `\`\`\`${options.language.codeFence}`,
            input.reference?.definition ?? [unit.signature.trim(), unit.docstring ?? ''].filter(Boolean).join('\n'),
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
        const proposal = proposalOf(item, isMethod, options.language.values);
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

function proposalOf(item: unknown, isMethod: boolean, values: ValueFormat): InputProposal | null {
  if (!isRecord(item)) return null;
  const call = argumentsOf(item, values);
  if (call === null) return null;
  let init: InputProposal['init'] = null;
  // a function has no instance: an init the model wrote for one is ignored, not a reason to drop the input
  if (isMethod && item['init'] !== undefined && item['init'] !== null) {
    if (!isRecord(item['init'])) return null;
    init = argumentsOf(item['init'], values);
    if (init === null) return null;
  }
  return { args: call.args, kwargs: call.kwargs, init };
}

function argumentsOf(item: Record<string, unknown>, values: ValueFormat): { args: unknown[]; kwargs: Record<string, unknown> } | null {
  const args = item['args'] ?? [];
  const kwargs = item['kwargs'] ?? {};
  if (!Array.isArray(args) || !args.every((a) => values.isPlainValue(a))) return null;
  if (!isRecord(kwargs)) return null;
  const entries = Object.entries(kwargs);
  if (entries.length > 0 && !values.keywordArguments) return null;
  if (!entries.every(([k, v]) => IDENTIFIER.test(k) && values.isPlainValue(v))) return null;
  return { args, kwargs: Object.fromEntries(entries) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
