import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatClient, ChatRequest, ChatResponse } from '../../llm/types.js';
import { stableJson } from '../write/stable-json.js';

export interface CachedChatClientOptions {
  /** Folder of cached answers, one `<sha256>.json` per request; created when missing. */
  cacheDir: string;
}

/**
 * A `ChatClient` that answers a request it has answered before from disk, keyed by the SHA-256 of
 * the model and the whole request (messages, tools, temperature, seed). Endpoints do not promise
 * the same answer twice, even at temperature 0 with a seed; the cache is what makes a rebuild with
 * the same seed byte-identical. Failures are never cached: a rebuild retries them.
 */
export function createCachedChatClient(client: ChatClient, options: CachedChatClientOptions): ChatClient {
  const { cacheDir } = options;
  return {
    model: client.model,
    async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
      const key = createHash('sha256').update(stableJson({ model: client.model, request })).digest('hex');
      const file = join(cacheDir, `${key}.json`);
      try {
        return JSON.parse(await readFile(file, 'utf8')) as ChatResponse;
      } catch {
        // not cached yet (or a torn file from a killed build): ask
      }
      const response = await client.complete(request, signal);
      await mkdir(cacheDir, { recursive: true });
      // write then rename, so concurrent tasks and killed builds never leave half a file behind
      const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      await writeFile(tmp, stableJson(response));
      await rename(tmp, file);
      return response;
    },
  };
}
