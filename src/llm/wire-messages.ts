import type { ChatMessage } from './types.js';

/** A message in OpenAI's chat format (snake_case, `tool_calls` with `type: function`). */
export type WireChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/**
 * A conversation in OpenAI's wire format: what the endpoint is sent, and what a trajectory stores,
 * so a trainer can feed it to a tokenizer's chat template as it is.
 */
export function toWireMessages(messages: readonly ChatMessage[]): WireChatMessage[] {
  return messages.map((m): WireChatMessage => {
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: m.content };
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
      case 'assistant':
        return m.toolCalls && m.toolCalls.length > 0
          ? { role: 'assistant', content: m.content, tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) }
          : { role: 'assistant', content: m.content };
    }
  });
}
