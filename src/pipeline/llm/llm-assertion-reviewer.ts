import type { ChatClient, ChatMessage } from '../../llm/types.js';
import type { AssertionReviewer, AssertionReviewInput } from '../write/spec-writer.js';
import type { LanguagePlugin } from '../../languages/language.js';
import { askModel } from './ask-model.js';
import { createCachedChatClient } from './cached-chat-client.js';
import { parseJsonAnswer } from './parse-json-answer.js';

export interface LlmAssertionReviewerOptions {
  /** Shows each case as the language's REPL would (`writer.exampleBlock`). */
  language: Pick<LanguagePlugin, 'writer'>;
  /** The build's seed, sent with every request (and so part of every cache key). */
  seed: number;
  /** Folder of cached answers (createCachedChatClient). Default: none, every call asks the model. */
  cacheDir?: string;
  /** Completion token cap. Default 1500. */
  maxTokens?: number;
}

const SYSTEM = [
  'You review the hidden test cases of a coding task against its statement. An engineer implements the function from the statement alone; each case calls it and compares the result (or the exception type) exactly.',
  'Flag a case only when the statement gives no way to know its expected result: it checks behaviour the statement does not promise or imply (an undocumented internal detail, an incidental type, an arbitrary choice the statement leaves open). Do not flag a case merely because it is an edge case the statement covers.',
  'Answer with JSON only: {"drop": [{"id": "<case id>", "why": "<one line>"}]}; {"drop": []} when every case is fair.',
].join('\n');

/**
 * An `AssertionReviewer` that shows a model the final statement and every case (as the call and its
 * recorded result) and returns the ids it flags as checking unpromised behaviour. Ids the task does
 * not hold are ignored; a malformed answer flags nothing (`onFallback('malformed-answer')`). How
 * many flagged cases are really dropped is write's decision (write-task.ts `DEFAULT_REVIEW_BOUNDS`).
 */
export function createLlmAssertionReviewer(client: ChatClient, options: LlmAssertionReviewerOptions): AssertionReviewer {
  const model = options.cacheDir === undefined ? client : createCachedChatClient(client, { cacheDir: options.cacheDir });
  return {
    async review(input: AssertionReviewInput): Promise<string[]> {
      const cases = input.cases.map((c) => `[${c.id}]\n${options.language.writer.exampleBlock(input.unit, c)}`);
      const messages: ChatMessage[] = [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: ['Statement:', '', input.spec.trim(), '', 'Cases:', '', cases.join('\n\n')].join('\n') },
      ];
      const answer = await askModel(model, messages, {
        seed: options.seed,
        maxTokens: options.maxTokens ?? 1500,
        ...(input.signal ? { signal: input.signal } : {}),
        ...(input.onFallback ? { onFallback: input.onFallback } : {}),
      });
      if (answer === null) return [];
      const raw = parseJsonAnswer(answer);
      const drop = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>)['drop'] : undefined;
      if (!Array.isArray(drop)) {
        input.onFallback?.('malformed-answer');
        return [];
      }
      const ids = new Set(input.cases.map((c) => c.id));
      const flagged = drop.map((d) => (typeof d === 'string' ? d : d !== null && typeof d === 'object' ? (d as Record<string, unknown>)['id'] : undefined));
      return [...new Set(flagged.filter((id): id is string => typeof id === 'string' && ids.has(id)))].sort();
    },
  };
}
