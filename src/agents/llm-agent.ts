import { LlmError, type LlmErrorKind } from '../llm/errors.js';
import type { ChatClient, ChatMessage, ChatTool } from '../llm/types.js';
import { formatObservation } from './format-observation.js';
import { toolCallToAction } from './tool-call-to-action.js';
import { describeStepError, type Agent, type AgentEpisode, type AgentRun, type AgentStatus } from './types.js';

export interface LlmAgentOptions {
  client: ChatClient;
  /** Model calls per episode. Default 30. */
  maxTurns?: number;
  /** Wall-clock budget of one episode's agent loop. Default 600000. */
  timeBudgetMs?: number;
  /** Characters of one observation the model reads (head and tail kept). Default 8000. */
  observationChars?: number;
  /**
   * Characters of conversation sent at most (about 4 per token); past it the episode ends as a
   * context overflow instead of sending a request the endpoint must refuse. Default 400000.
   */
  contextChars?: number;
  /** Consecutive answers without a tool call before the episode ends. Default 3. */
  maxIdleTurns?: number;
  temperature?: number;
  maxTokens?: number;
  /** Replaces the default system prompt. */
  systemPrompt?: string;
}

/** Kinds after which no other episode can do better: the rollout stops starting new ones. */
export const FATAL_LLM_ERRORS: ReadonlySet<LlmErrorKind> = new Set(['endpoint-down', 'model-not-served', 'auth']);

function defaultSystemPrompt(episode: AgentEpisode): string {
  return [
    `You are a software engineer working in a repository at ${episode.workdir} inside a sandbox without network.`,
    'Use the tools to inspect the code, implement what the task asks, and check your work by running it.',
    'When the implementation is complete, call submit. Only the final state of the files is scored, by hidden tests.',
  ].join(' ');
}

/**
 * The tool-calling loop against an OpenAI-compatible chat-completions endpoint: the tools are the
 * episode's (shell, read_file, write_file, edit, submit), each call is one Step, and the
 * observation goes back as the tool's answer. A malformed call (bad JSON, unknown tool, missing
 * argument) goes back as a tool error for the model to correct; endpoint failures end the episode
 * with status `llm-error` and the workspace is scored as it stands.
 */
export function createLlmAgent(options: LlmAgentOptions): Agent {
  const maxTurns = options.maxTurns ?? 30;
  const timeBudgetMs = options.timeBudgetMs ?? 600_000;
  const observationChars = options.observationChars ?? 8000;
  const contextChars = options.contextChars ?? 400_000;
  const maxIdleTurns = options.maxIdleTurns ?? 3;
  const client = options.client;

  return {
    name: 'llm',
    model: client.model,
    async run(episode, channel, outerSignal): Promise<AgentRun> {
      const signal = AbortSignal.any([outerSignal, AbortSignal.timeout(timeBudgetMs)]);
      const tools: ChatTool[] = episode.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
      const messages: ChatMessage[] = [
        { role: 'system', content: options.systemPrompt ?? defaultSystemPrompt(episode) },
        { role: 'user', content: episode.prompt },
      ];
      const usage = { llmCalls: 0, promptTokens: 0, completionTokens: 0 };
      const end = (status: AgentStatus, reason: string, llmErrorKind: string | null = null): AgentRun => ({
        status,
        reason,
        llmErrorKind,
        messages,
        ...usage,
      });
      let idle = 0;
      let stepsLeft = episode.limits.maxSteps > 0 ? episode.limits.maxSteps : Number.POSITIVE_INFINITY;

      for (let turn = 0; turn < maxTurns; turn++) {
        if (signal.aborted) return end('budget', `the agent's time budget (${timeBudgetMs} ms) ran out`);
        const size = conversationChars(messages);
        if (size > contextChars) {
          return end('llm-error', `the conversation (${size} characters) outgrew the context budget of ${contextChars}`, 'context-overflow');
        }
        let answer;
        try {
          answer = await client.complete(
            { messages, tools, ...(options.temperature !== undefined ? { temperature: options.temperature } : {}), ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}) },
            signal,
          );
        } catch (err) {
          if (signal.aborted && !outerSignal.aborted) return end('budget', `the agent's time budget (${timeBudgetMs} ms) ran out`);
          const llm = err instanceof LlmError ? err : new LlmError('bad-response', describeStepError(err), { cause: err });
          return end('llm-error', llm.message, llm.kind);
        }
        usage.llmCalls++;
        usage.promptTokens += answer.usage?.promptTokens ?? 0;
        usage.completionTokens += answer.usage?.completionTokens ?? 0;
        const calls = answer.message.toolCalls;
        messages.push({ role: 'assistant', content: answer.message.content, ...(calls.length > 0 ? { toolCalls: calls } : {}) });

        if (calls.length === 0) {
          if (answer.finishReason === 'length') {
            return end('llm-error', 'the model hit its output limit before calling a tool', 'context-overflow');
          }
          idle++;
          if (idle >= maxIdleTurns) return end('no-action', `the model answered ${idle} times in a row without calling a tool`);
          messages.push({ role: 'user', content: 'Use the tools to work on the task, and call submit when it is done.' });
          continue;
        }
        idle = 0;

        let finished: AgentRun | null = null;
        for (const call of calls) {
          if (finished) {
            messages.push({ role: 'tool', toolCallId: call.id, content: 'not run: the episode is over' });
            continue;
          }
          const parsed = toolCallToAction(call.name, call.arguments, episode.tools);
          if (!parsed.ok) {
            messages.push({ role: 'tool', toolCallId: call.id, content: parsed.error });
            continue;
          }
          if (stepsLeft <= 0) {
            messages.push({ role: 'tool', toolCallId: call.id, content: 'not run: the step budget is spent' });
            finished = end('budget', `the step budget (${episode.limits.maxSteps}) ran out`);
            continue;
          }
          let result;
          try {
            stepsLeft--;
            result = await channel.step(parsed.action);
          } catch (err) {
            const why = describeStepError(err);
            messages.push({ role: 'tool', toolCallId: call.id, content: `error: the environment refused the action: ${why}` });
            finished = end('env-error', why);
            continue;
          }
          messages.push({ role: 'tool', toolCallId: call.id, content: formatObservation(parsed.action, result, observationChars) });
          if (result.terminated && parsed.action.kind !== 'submit') finished = end('sandbox-ended', result.observation.stderr.trim());
          else if (result.terminated) finished = end('submitted', `submitted after ${usage.llmCalls} model call${usage.llmCalls === 1 ? '' : 's'}`);
          else if (result.truncated) finished = end('budget', 'the server ended the episode: its step or time budget ran out');
        }
        if (finished) return finished;
      }
      return end('budget', `the turn budget (${maxTurns} model calls) ran out`);
    },
  };
}

function conversationChars(messages: readonly ChatMessage[]): number {
  let total = 0;
  for (const m of messages) {
    total += (m.content ?? '').length;
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) total += c.name.length + c.arguments.length;
  }
  return total;
}
