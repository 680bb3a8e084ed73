import { Option, type Command } from 'commander';
import { createLlmAgent } from '../agents/llm-agent.js';
import { createNullAgent } from '../agents/null-agent.js';
import { createOracleAgent, solutionsFromEnvironments } from '../agents/oracle-agent.js';
import type { Agent } from '../agents/types.js';
import { LlmError } from '../llm/errors.js';
import { createOpenAiChatClient } from '../llm/openai-chat-client.js';
import { CliError } from './cli-error.js';
import { positiveInt } from './positive-int.js';

export interface AgentFlags {
  agent: string;
  baseUrl?: string;
  model?: string;
  maxTurns: number;
  agentTimeoutMs: number;
  observationChars: number;
  contextChars: number;
  temperature?: number;
  llmRetries: number;
  llmTimeoutMs: number;
}

const POLICIES = ['llm', 'oracle', 'null'] as const;

/** The flags that choose and tune the policy (`rollout`, `filter`). */
export function addAgentOptions(command: Command): Command {
  return command
    .option('--agent <policies>', `policy: ${POLICIES.join(', ')}; a comma list mixes them in each group (member i runs the (i mod n)-th)`, 'llm')
    .addOption(new Option('--base-url <url>', 'OpenAI-compatible endpoint of --agent llm, up to /v1').env('CODEMIDAS_LLM_BASE_URL'))
    .addOption(new Option('--model <name>', 'model served there').env('CODEMIDAS_LLM_MODEL'))
    .option('--max-turns <n>', 'model calls per episode', positiveInt('--max-turns'), 30)
    .option('--agent-timeout-ms <ms>', "wall-clock budget of one episode's agent", positiveInt('--agent-timeout-ms'), 600_000)
    .option('--observation-chars <n>', 'characters of one observation the model reads (head and tail kept)', positiveInt('--observation-chars'), 8000)
    .option('--context-chars <n>', 'conversation size past which the episode ends as a context overflow', positiveInt('--context-chars'), 400_000)
    .option('--temperature <t>', 'sampling temperature (default: the endpoint\'s)', (raw) => Number(raw))
    .option('--llm-retries <n>', 'retries of a 429, 5xx or connection failure, with backoff', (raw) => Number(raw), 4)
    .option('--llm-timeout-ms <ms>', 'limit of one model request', positiveInt('--llm-timeout-ms'), 120_000);
}

/** The API key: `CODEMIDAS_LLM_API_KEY`, else `OPENAI_API_KEY`, else none (local servers need none). */
export function llmApiKeyFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env['CODEMIDAS_LLM_API_KEY'] || env['OPENAI_API_KEY'] || undefined;
}

/**
 * The policy of each group member, built from the flags. An `llm` policy's endpoint is probed first,
 * so an endpoint that is down or a model it does not serve fails here, before any episode starts.
 */
export async function createAgentsFromFlags(flags: AgentFlags, environmentsDir: string, say: (line: string) => void): Promise<Agent[]> {
  const names = flags.agent.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new CliError('--agent is empty', `choose one of ${POLICIES.join(', ')}`);
  const unknown = names.filter((n) => !(POLICIES as readonly string[]).includes(n));
  if (unknown.length > 0) throw new CliError(`unknown --agent policy: ${unknown.join(', ')}`, `choose from ${POLICIES.join(', ')} (a comma list mixes them)`);

  let llm: Agent | null = null;
  if (names.includes('llm')) {
    if (!flags.baseUrl) {
      throw new CliError('--agent llm needs an endpoint', 'pass --base-url http://host:port/v1 (or set CODEMIDAS_LLM_BASE_URL), or use --agent oracle / null');
    }
    if (!flags.model) throw new CliError('--agent llm needs a model name', 'pass --model <name> (or set CODEMIDAS_LLM_MODEL)');
    const client = createOpenAiChatClient({
      baseUrl: flags.baseUrl,
      model: flags.model,
      apiKey: llmApiKeyFromEnv(),
      maxRetries: flags.llmRetries,
      timeoutMs: flags.llmTimeoutMs,
    });
    try {
      const probe = await client.probe(AbortSignal.timeout(30_000));
      say(`llm: ${flags.baseUrl} answers${probe.models.length > 0 ? ` and serves ${flags.model}` : ' (it lists no models; the first request will tell)'}`);
    } catch (err) {
      if (err instanceof LlmError) throw new CliError(err.message, '', 1);
      throw err;
    }
    llm = createLlmAgent({
      client,
      maxTurns: flags.maxTurns,
      timeBudgetMs: flags.agentTimeoutMs,
      observationChars: flags.observationChars,
      contextChars: flags.contextChars,
      ...(flags.temperature !== undefined ? { temperature: flags.temperature } : {}),
    });
  }
  const solutions = solutionsFromEnvironments(environmentsDir);
  const oracle = createOracleAgent(solutions);
  const nul = createNullAgent();
  return names.map((n) => (n === 'llm' ? (llm as Agent) : n === 'oracle' ? oracle : nul));
}

/** `oracle`, `llm:<model>`, `oracle+null`: how a verdict names the policy. */
export function describeAgents(agents: readonly Agent[]): { name: string; model: string | null } {
  const names = [...new Set(agents.map((a) => a.name))];
  const model = agents.find((a) => a.model !== null)?.model ?? null;
  return { name: names.join('+'), model };
}
