import type { ChatClient, ChatMessage } from '../../llm/types.js';
import { DEFAULT_LEAK_RUN_TOKENS } from '../audit/audit-leaks.js';
import { buildLeakIndex, findRuns, type Tokenize } from '../audit/leak-index.js';
import type { LanguagePlugin } from '../../languages/language.js';
import type { SpecWriter, SpecWriterInput } from '../write/spec-writer.js';
import { askModel } from './ask-model.js';
import { createCachedChatClient } from './cached-chat-client.js';

export interface LlmSpecWriterOptions {
  /** The language of the code: its name and fences in the request, its tokenizer and example lines in the checks. */
  language: LlmLanguage;
  /** The build's seed, sent with every request (and so part of every cache key). */
  seed: number;
  /** Folder of cached answers (createCachedChatClient). Default: none, every call asks the model. */
  cacheDir?: string;
  /** Completion token cap. Default 2000. */
  maxTokens?: number;
  /**
   * A rewrite holding a run of this many consecutive tokens of the reference body (the whole body
   * when shorter) gives the implementation away and is rejected. Default `DEFAULT_LEAK_RUN_TOKENS`
   * (12), the leak audit's run length; the audit's coverage threshold does not apply here: one
   * pasted line of the body in the prompt is already a leak.
   */
  leakRunTokens?: number;
  /** Longest rewrite kept, in characters. Default 20000. */
  maxChars?: number;
}

/** What the LLM hooks need of a language plugin. */
export type LlmLanguage = Pick<LanguagePlugin, 'displayName' | 'codeFence' | 'leaks' | 'writer' | 'values'>;

/** Bodies shorter than this many tokens (`return x`) are not searched for: any description of them would match. */
const MIN_LEAK_TOKENS = 6;

/** The system message, for code in `displayName`. */
const systemMessage = (displayName: string): string => [
  `You write the task statement of a coding task. An engineer will implement a ${displayName} function whose body was removed, from your statement alone; hidden tests then compare the implementation with the original.`,
  'Describe behaviour, never implementation: what the function returns for which inputs, edge cases, which exception types it raises and when, effects on mutable arguments. Do not copy, paraphrase line by line, or sketch the code you are shown; no pseudo-code.',
  'Answer with the statement in Markdown only. Keep the first heading line of the draft, its `## Signature` code block exactly as it is, and its examples exactly as they are; add no other examples (only recorded ones are true).',
].join('\n');

/**
 * A `SpecWriter` that asks a model to rewrite the deterministic prompt from the reference code, the
 * signature, the draft and the recorded examples the draft shows. The answer is kept only when it
 * is not empty, holds the signature block and the function's name, invents no example, and
 * holds no run of the reference body (`leakRunTokens`); otherwise the draft stays and `onFallback`
 * says why (`empty`, `too-long`, `no-signature`, `invented-example`, `leak`, `llm-error:<kind>`).
 */
export function createLlmSpecWriter(client: ChatClient, options: LlmSpecWriterOptions): SpecWriter {
  const model = options.cacheDir === undefined ? client : createCachedChatClient(client, { cacheDir: options.cacheDir });
  const maxChars = options.maxChars ?? 20_000;
  const runTokens = options.leakRunTokens ?? DEFAULT_LEAK_RUN_TOKENS;
  const { language } = options;
  const system = systemMessage(language.displayName);
  const fence = '```' + language.codeFence;
  return {
    async rewrite(input: SpecWriterInput): Promise<string | null> {
      const { unit, draft } = input;
      const messages: ChatMessage[] = [
        { role: 'system', content: system },
        {
          role: 'user',
          content: [
            `Function: \`${unit.qualname}\` in module \`${unit.module}\` (file \`${unit.file}\`).`,
            '',
            'Signature:',
            fence,
            unit.signature.trim(),
            '```',
            '',
            'Reference implementation (for you to understand the behaviour; it must not appear in the statement):',
            fence,
            input.reference?.definition ?? unit.signature.trim(),
            '```',
            '',
            'Draft statement (its examples were recorded by running the reference):',
            '',
            draft,
          ].join('\n'),
        },
      ];
      const answer = await askModel(model, messages, {
        seed: options.seed,
        maxTokens: options.maxTokens ?? 2000,
        ...(input.signal ? { signal: input.signal } : {}),
        ...(input.onFallback ? { onFallback: input.onFallback } : {}),
      });
      if (answer === null) return null;
      const spec = unfence(answer).trim();
      const problem = specProblem(spec, input, language, { maxChars, runTokens });
      if (problem !== null) {
        input.onFallback?.(problem);
        return null;
      }
      return `${spec}\n`;
    },
  };
}

/** Why a rewrite cannot replace the draft, or null when it can. */
function specProblem(spec: string, input: SpecWriterInput, language: LlmLanguage, limits: { maxChars: number; runTokens: number }): string | null {
  if (spec === '') return 'empty';
  if (spec.length > limits.maxChars) return 'too-long';
  const name = input.unit.qualname.split('.').at(-1) ?? input.unit.qualname;
  const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();
  if (!new RegExp(`\\b${escapeRegExp(name)}\\b`).test(spec) || !squash(spec).includes(squash(input.unit.signature))) return 'no-signature';
  // an example the draft does not show was not recorded: its value is the model's guess
  const shown = new Set(language.writer.exampleLines(input.draft));
  if (language.writer.exampleLines(spec).some((line) => !shown.has(line))) return 'invented-example';
  if (input.reference && leaks(spec, input.reference.body, language.leaks.tokenize, limits.runTokens)) return 'leak';
  return null;
}

function leaks(spec: string, body: string, tokenize: Tokenize, runTokens: number): boolean {
  const bodyTokens = tokenize(body).tokens;
  if (bodyTokens.length < MIN_LEAK_TOKENS) return false;
  const index = buildLeakIndex([{ path: 'spec.md', content: spec }], tokenize);
  return findRuns(index, bodyTokens, runTokens).length > 0;
}

/** The inside of an answer wrapped whole in one fence (```markdown ... ```), else the answer. */
function unfence(answer: string): string {
  const m = /^\s*```(?:markdown|md)?[ \t]*\n([\s\S]*?)\n```\s*$/i.exec(answer);
  return m?.[1] ?? answer;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
