/**
 * An OpenAI-compatible chat-completions server for tests: a real HTTP server on 127.0.0.1:0 that
 * answers `POST /v1/chat/completions` from a script and `GET /v1/models` from a list, so the real
 * HTTP client (the `openai` package) is exercised end to end.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The request body as the client sent it (OpenAI wire format). */
export interface ChatBody {
  model: string;
  messages: Array<{
    role: string;
    content: string | null;
    tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
    tool_call_id?: string;
  }>;
  tools?: Array<{ type: string; function: { name: string } }>;
}

export type FakeReply =
  /** A completion; each tool call's `arguments` is sent as written (it may be malformed JSON). */
  | { toolCalls: Array<{ id?: string; name: string; arguments: string }>; content?: string | null; finishReason?: string }
  | { content: string; finishReason?: string; toolCalls?: undefined }
  /** An HTTP error with an OpenAI-style error body. */
  | { status: number; message: string; headers?: Record<string, string> };

export type FakeScript = (body: ChatBody, requestIndex: number) => FakeReply | Promise<FakeReply>;

export interface FakeOpenAiServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  /** Every chat request received, in order. */
  requests: ChatBody[];
  close(): Promise<void>;
}

export async function startFakeOpenAiServer(script: FakeScript, options: { models?: string[] } = {}): Promise<FakeOpenAiServer> {
  const requests: ChatBody[] = [];
  const models = options.models ?? ['scripted-model'];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const send = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
          res.writeHead(status, { 'content-type': 'application/json', ...headers });
          res.end(JSON.stringify(body));
        };
        if (req.method === 'GET' && req.url === '/v1/models') {
          send(200, { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' })) });
          return;
        }
        if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
          send(404, { error: { message: `no route ${req.method} ${req.url}`, type: 'not_found' } });
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatBody;
        const index = requests.length;
        requests.push(body);
        let reply: FakeReply;
        try {
          reply = await script(body, index);
        } catch (err) {
          send(500, { error: { message: `script failed: ${err instanceof Error ? err.message : String(err)}` } });
          return;
        }
        if ('status' in reply) {
          send(reply.status, { error: { message: reply.message, type: 'error', code: null, param: null } }, reply.headers);
          return;
        }
        const toolCalls = (reply.toolCalls ?? []).map((c, i) => ({ id: c.id ?? `call_${index}_${i}`, type: 'function', function: { name: c.name, arguments: c.arguments } }));
        send(200, {
          id: `chatcmpl-${index}`,
          object: 'chat.completion',
          created: 0,
          model: body.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: reply.content ?? null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
              finish_reason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
            },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        });
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** How many assistant turns the conversation already holds (the step the script is at). */
export function turnOf(body: ChatBody): number {
  return body.messages.filter((m) => m.role === 'assistant').length;
}

/** The id of the first tool call of the conversation ('' on the first turn): scripts encode their plan in it. */
export function firstCallId(body: ChatBody): string {
  return body.messages.find((m) => m.role === 'assistant')?.tool_calls?.[0]?.id ?? '';
}

/**
 * A scripted solver: on the first turn `choose(prompt, attempt)` picks `correct` (write each
 * solution file, then submit) or `wrong` (look around with shell, then submit untouched) for this
 * conversation; later turns follow the plan, which is carried in the first tool call's id.
 */
export function scriptedSolver(options: {
  choose: (prompt: string, attempt: number) => 'correct' | 'wrong';
  solution: (prompt: string) => ReadonlyMap<string, string>;
}): FakeScript {
  const attempts = new Map<string, number>();
  return (body) => {
    const prompt = body.messages.find((m) => m.role === 'user')?.content ?? '';
    const turn = turnOf(body);
    let plan: string;
    if (turn === 0) {
      const attempt = attempts.get(prompt) ?? 0;
      attempts.set(prompt, attempt + 1);
      plan = options.choose(prompt, attempt);
    } else {
      plan = firstCallId(body).split('-')[1] ?? 'wrong';
    }
    const id = `call-${plan}-${turn}`;
    if (turn === 0) return { content: 'Let me look at the workspace.', toolCalls: [{ id, name: 'shell', arguments: JSON.stringify({ command: 'ls' }) }] };
    if (plan === 'wrong') return { toolCalls: [{ id, name: 'submit', arguments: '{}' }] };
    const files = [...options.solution(prompt)];
    const file = files[turn - 1];
    if (file) return { toolCalls: [{ id, name: 'write_file', arguments: JSON.stringify({ path: file[0], content: file[1] }) }] };
    return { toolCalls: [{ id, name: 'submit', arguments: '{}' }] };
  };
}
