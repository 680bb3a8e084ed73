import type { ChatClient } from '../../llm/types.js';
import type { AssertionReviewer, InputProposer, SpecWriter } from '../write/spec-writer.js';
import { createCachedChatClient } from './cached-chat-client.js';
import { createLlmAssertionReviewer } from './llm-assertion-reviewer.js';
import { createLlmInputProposer } from './llm-input-proposer.js';
import { createLlmSpecWriter, type LlmLanguage } from './llm-spec-writer.js';

export interface LlmHooksOptions {
  /** The language plugin of the repository's code. */
  language: LlmLanguage;
  /** The build's seed. */
  seed: number;
  /** Folder of cached answers shared by the three hooks (a rebuild with the same seed asks nothing again). */
  cacheDir: string;
}

export interface LlmHooks {
  specWriter: SpecWriter;
  inputProposer: InputProposer;
  assertionReviewer: AssertionReviewer;
}

/** The three LLM hooks of construction on one client, behind one answer cache (for the composition root). */
export function createLlmHooks(client: ChatClient, options: LlmHooksOptions): LlmHooks {
  const cached = createCachedChatClient(client, { cacheDir: options.cacheDir });
  return {
    specWriter: createLlmSpecWriter(cached, { seed: options.seed, language: options.language }),
    inputProposer: createLlmInputProposer(cached, { language: options.language }),
    assertionReviewer: createLlmAssertionReviewer(cached, { seed: options.seed, language: options.language }),
  };
}
