/**
 * The rollout worker and the agents over a real gRPC server (in-memory sandbox, fake scorer: the task
 * is solved when pkg/add.py holds "return a + b") and, for the llm agent, the real `openai` HTTP
 * client against a scripted OpenAI-compatible server on a real port.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLlmAgent } from '../../src/agents/llm-agent.js';
import { createNullAgent } from '../../src/agents/null-agent.js';
import { createOracleAgent } from '../../src/agents/oracle-agent.js';
import type { Agent } from '../../src/agents/types.js';
import { EnvironmentClient } from '../../src/client/environment-client.js';
import { resolveLimits } from '../../src/config/limits.js';
import { createEpisodeManager } from '../../src/episodes/episode-manager.js';
import { LlmError } from '../../src/llm/errors.js';
import { createOpenAiChatClient } from '../../src/llm/openai-chat-client.js';
import { createSilentLogger } from '../../src/logging.js';
import { runRollouts, type RolloutSummary } from '../../src/rollouts/run-rollouts.js';
import { parseTrajectories, type Trajectory } from '../../src/rollouts/trajectory-schema.js';
import { type RunningServer, startServer } from '../../src/server/start-server.js';
import { FakeProvider, FakeScorer, makeCatalog, makeTask, WORKSPACE } from './episodes-fakes.js';
import { startFakeOpenAiServer, turnOf, type FakeOpenAiServer, type FakeScript } from './fake-openai-server.js';

const SOLVED = 'def add(a, b):\n    return a + b\n';
const oracle = createOracleAgent(async () => new Map([['pkg/add.py', SOLVED]]));
const nul = createNullAgent();

let server: RunningServer;
let client: EnvironmentClient;
let fakes: FakeOpenAiServer[] = [];

beforeAll(async () => {
  const catalog = makeCatalog([makeTask('add'), makeTask('sub')]);
  const manager = createEpisodeManager({
    provider: new FakeProvider(),
    catalog,
    scorer: new FakeScorer(),
    logger: createSilentLogger(),
    limits: resolveLimits({}),
    readWorkspace: async () => WORKSPACE,
  });
  await manager.start();
  server = await startServer({ manager, catalog, logger: createSilentLogger(), listen: { host: '127.0.0.1', port: 0 } });
  client = new EnvironmentClient(server.address, { deadlineMs: 20_000 });
});

afterAll(async () => {
  client?.dispose();
  await server?.close({ graceMs: 1000 });
});

afterEach(async () => {
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});

async function fake(script: FakeScript, models?: string[]): Promise<FakeOpenAiServer> {
  const f = await startFakeOpenAiServer(script, models ? { models } : {});
  fakes.push(f);
  return f;
}

function llmAgent(baseUrl: string, options: { maxRetries?: number; contextChars?: number; maxTurns?: number } = {}): Agent {
  const chat = createOpenAiChatClient({ baseUrl, model: 'scripted-model', maxRetries: options.maxRetries ?? 2, timeoutMs: 10_000 });
  return createLlmAgent({ client: chat, maxTurns: options.maxTurns ?? 10, timeBudgetMs: 30_000, ...(options.contextChars ? { contextChars: options.contextChars } : {}) });
}

async function rollout(agents: Agent[], options: { groups?: number; groupSize?: number; concurrency?: number; taskIds?: string[] } = {}): Promise<{ summary: RolloutSummary; trajectories: Trajectory[] }> {
  const lines: string[] = [];
  const summary = await runRollouts({
    client,
    taskIds: options.taskIds ?? ['sample/add'],
    groupSize: options.groupSize ?? agents.length,
    groups: options.groups ?? 1,
    concurrency: options.concurrency ?? 1,
    agentFor: (member) => agents[member % agents.length]!,
    runId: 'test-run',
    write: async (t) => void lines.push(JSON.stringify(t)),
  });
  // Every line must load through the published schema.
  return { summary, trajectories: parseTrajectories(lines.join('\n')) };
}

const writeCall = (content: string) => ({ name: 'write_file', arguments: JSON.stringify({ path: 'pkg/add.py', content }) });
const submitCall = { name: 'submit', arguments: '{}' };

describe('GRPO advantages with oracle and null in one group', () => {
  it('match a hand computation: [oracle, null, null] gives +sqrt(2) and -1/sqrt(2)', async () => {
    const { trajectories } = await rollout([oracle, nul, nul]);
    expect(trajectories.map((t) => t.agent.name)).toEqual(['oracle', 'null', 'null']);
    expect(trajectories.map((t) => t.reward)).toEqual([1, 0, 0]);
    // mean = 1/3; population std = sqrt(((2/3)^2 + 2 (1/3)^2) / 3) = sqrt(2)/3;
    // advantages = (r - mean) / (std + 1e-6): (2/3)/(sqrt(2)/3) = sqrt(2), (-1/3)/(sqrt(2)/3) = -1/sqrt(2).
    const std = Math.SQRT2 / 3 + 1e-6;
    expect(trajectories[0]!.advantage).toBeCloseTo((2 / 3) / std, 9);
    expect(trajectories[0]!.advantage).toBeCloseTo(Math.SQRT2, 5);
    expect(trajectories[1]!.advantage).toBeCloseTo(-1 / Math.SQRT2, 5);
    expect(trajectories[2]!.advantage).toBeCloseTo(-1 / Math.SQRT2, 5);
    expect(trajectories.every((t) => t.mask)).toBe(true);
    expect(trajectories[0]!.actions.map((a) => a.kind)).toEqual(['write_file', 'submit']);
    expect(trajectories[1]!.actions.map((a) => a.kind)).toEqual(['submit']);
  });

  it('a balanced group [oracle, null, oracle, null] gives advantages of ±1 (to 1e-5)', async () => {
    const { trajectories, summary } = await rollout([oracle, nul]);
    expect(summary.episodes).toBe(2);
    const four = await rollout([oracle, nul], { groupSize: 4 });
    expect(four.trajectories.map((t) => t.reward)).toEqual([1, 0, 1, 0]);
    for (const t of four.trajectories) expect(t.advantage).toBeCloseTo(t.reward === 1 ? 1 : -1, 5);
    expect(new Set(trajectories.map((t) => t.group.id)).size).toBe(1);
  });
});

describe('the llm agent through the real HTTP client', () => {
  it('recovers from malformed tool-call JSON and an unknown tool: both go back to the model as tool errors', async () => {
    const f = await fake((body) => {
      switch (turnOf(body)) {
        case 0:
          return { toolCalls: [{ name: 'write_file', arguments: '{"path": "pkg/add.py", "content": ' }] };
        case 1:
          return { toolCalls: [{ name: 'run_python', arguments: '{"code": "1+1"}' }] };
        case 2:
          return { toolCalls: [{ name: 'shell', arguments: '{"cmd": "ls"}' }] };
        case 3:
          return { toolCalls: [writeCall(SOLVED)] };
        default:
          return { toolCalls: [submitCall] };
      }
    });
    const { trajectories } = await rollout([llmAgent(f.baseUrl)]);
    const t = trajectories[0]!;
    expect(t.agentStatus).toBe('submitted');
    expect(t.solved).toBe(true);
    expect(t.actions.map((a) => a.kind)).toEqual(['write_file', 'submit']);
    const toolAnswers = t.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(toolAnswers[0]).toMatch(/arguments of write_file are not valid JSON/);
    expect(toolAnswers[1]).toMatch(/unknown tool 'run_python'; the tools are shell, read_file, write_file, edit, submit/);
    expect(toolAnswers[2]).toMatch(/unknown argument 'cmd'.*missing argument 'command'/);
    // The model saw its own errors: the fourth request carries the three tool errors.
    expect(f.requests[3]!.messages.filter((m) => m.role === 'tool')).toHaveLength(3);
    expect(f.requests[0]!.tools?.map((x) => x.function.name)).toEqual(['shell', 'read_file', 'write_file', 'edit', 'submit']);
  });

  it('rides out a short 429 storm with backoff (retry-after-ms honoured) and solves the task', async () => {
    let throttled = 0;
    const f = await fake((body) => {
      if (throttled < 2) {
        throttled++;
        return { status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '20' } };
      }
      return turnOf(body) === 0 ? { toolCalls: [writeCall(SOLVED)] } : { toolCalls: [submitCall] };
    });
    const { trajectories } = await rollout([llmAgent(f.baseUrl, { maxRetries: 3 })]);
    expect(throttled).toBe(2);
    expect(f.requests).toHaveLength(4);
    expect(trajectories[0]!.solved).toBe(true);
    expect(trajectories[0]!.usage.llmCalls).toBe(2);
  });

  it('a 429 storm that never ends is a recorded failed episode with the reason, not a hung worker', async () => {
    const f = await fake(() => ({ status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '10' } }));
    const started = Date.now();
    const { trajectories, summary } = await rollout([llmAgent(f.baseUrl, { maxRetries: 2 })]);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(f.requests).toHaveLength(3); // one try and two retries
    const t = trajectories[0]!;
    expect(t.agentStatus).toBe('llm-error');
    expect(t.llmErrorKind).toBe('rate-limited');
    expect(t.agentReason).toMatch(/kept answering 429/);
    expect(t.outcome).toBe('SCORED');
    expect(t.reward).toBe(0);
    expect(summary.fatal).toBeNull(); // the next group may fare better
  });

  it('a context overflow (from the endpoint, or past the agent budget) ends the episode as a recorded failure', async () => {
    const f = await fake((body) =>
      turnOf(body) === 0
        ? { toolCalls: [{ name: 'shell', arguments: '{"command": "echo hi"}' }] }
        : { status: 400, message: "This model's maximum context length is 4096 tokens. However, you requested 9000 tokens." },
    );
    const fromEndpoint = (await rollout([llmAgent(f.baseUrl)])).trajectories[0]!;
    expect(fromEndpoint.agentStatus).toBe('llm-error');
    expect(fromEndpoint.llmErrorKind).toBe('context-overflow');
    expect(fromEndpoint.agentReason).toMatch(/no longer fits the context window of 'scripted-model'/);
    expect(fromEndpoint.actions.map((a) => a.kind)).toEqual(['shell']);

    const g = await fake(() => ({ toolCalls: [{ name: 'shell', arguments: '{"command": "echo hi"}' }] }));
    const fromBudget = (await rollout([llmAgent(g.baseUrl, { contextChars: 20 })])).trajectories[0]!;
    expect(fromBudget.llmErrorKind).toBe('context-overflow');
    expect(fromBudget.agentReason).toMatch(/outgrew the context budget of 20/);
    expect(g.requests).toHaveLength(0);
  });

  it('an endpoint that is down: probe says so plainly, and a rollout records the failure and starts no further group', async () => {
    const f = await fake(() => ({ toolCalls: [submitCall] }));
    const deadUrl = f.baseUrl;
    await f.close();
    fakes = [];
    const chat = createOpenAiChatClient({ baseUrl: deadUrl, model: 'scripted-model', maxRetries: 1, timeoutMs: 5_000 });
    const probe = await chat.probe().then(() => null, (err: unknown) => err);
    expect(probe).toBeInstanceOf(LlmError);
    expect((probe as LlmError).kind).toBe('endpoint-down');
    expect((probe as LlmError).message).toMatch(new RegExp(`cannot reach the LLM endpoint ${deadUrl.replace(/[.:/]/g, '\\$&')}.*ECONNREFUSED.*is the server running`));

    const { summary, trajectories } = await rollout([llmAgent(deadUrl, { maxRetries: 1 })], { groups: 3, concurrency: 1, taskIds: ['sample/add', 'sample/sub'] });
    expect(summary.groupsRun).toBe(1);
    expect(summary.fatal).toMatch(/cannot reach the LLM endpoint/);
    expect(trajectories).toHaveLength(1);
    expect(trajectories[0]!.llmErrorKind).toBe('endpoint-down');
  });

  it('a model the endpoint does not serve: probe lists the served ones; a 404 on completion says the same', async () => {
    const f = await fake(() => ({ status: 404, message: 'The model `scripted-model` does not exist.' }), ['qwen-coder', 'llama']);
    const chat = createOpenAiChatClient({ baseUrl: f.baseUrl, model: 'scripted-model', maxRetries: 0 });
    await expect(chat.probe()).rejects.toThrow(/does not serve model 'scripted-model'; it serves: qwen-coder, llama\. Pass one of them with --model/);
    const err = await chat.complete({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect((err as LlmError).kind).toBe('model-not-served');
    expect((err as LlmError).message).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/v1\/models/);
  });

  it('stops after the turn budget when the model never submits, and after idle answers without a tool call', async () => {
    const busy = await fake(() => ({ toolCalls: [{ name: 'shell', arguments: '{"command": "true"}' }] }));
    const t = (await rollout([llmAgent(busy.baseUrl, { maxTurns: 3 })])).trajectories[0]!;
    expect(t.agentStatus).toBe('budget');
    expect(t.agentReason).toMatch(/turn budget \(3 model calls\)/);
    expect(t.actions).toHaveLength(3);

    const chatty = await fake(() => ({ content: 'I think the answer is a + b.' }));
    const c = (await rollout([llmAgent(chatty.baseUrl)])).trajectories[0]!;
    expect(c.agentStatus).toBe('no-action');
    expect(chatty.requests).toHaveLength(3);
  });
});

describe('trajectory lines', () => {
  it('refuse a line that breaks the schema, naming the line and the field', async () => {
    const { trajectories } = await rollout([oracle]);
    const good = JSON.stringify(trajectories[0]);
    const bad = JSON.stringify({ ...trajectories[0], reward: 'high' });
    expect(() => parseTrajectories(`${good}\n${bad}\n`)).toThrow(/line 2: reward:/);
    expect(() => parseTrajectories('{not json')).toThrow(/line 1: not JSON/);
    expect(parseTrajectories(`${good}\n\n`)).toHaveLength(1);
  });
});
