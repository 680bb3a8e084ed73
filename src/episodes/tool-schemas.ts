import type { Limits } from '../config/limits.js';
import type { ToolSpec } from './types.js';

/**
 * The tools offered to the agent, as JSON Schemas (OpenAI-style function parameters). Argument names
 * match the proto's action fields, so a trainer can pass a tool call's arguments straight into Step.
 */
export function createToolSpecs(limits: Readonly<Limits>, workdir: string): readonly ToolSpec[] {
  return Object.freeze([
    {
      name: 'shell',
      description:
        `Run a bash command in ${workdir} (no network). Output is capped at ${limits.maxOutputBytes} bytes per stream ` +
        `(head and tail kept). The command is killed after timeout_ms (default ${limits.defaultCommandMs}, ` +
        `at most ${limits.maxCommandMs}).`,
      parameters: {
        type: 'object',
        properties: {
          command: { type: 'string', description: 'bash command line' },
          timeout_ms: { type: 'integer', minimum: 0, maximum: limits.maxCommandMs, description: '0: the default limit' },
        },
        required: ['command'],
        additionalProperties: false,
      },
    },
    {
      name: 'read_file',
      description: `Read a file (path relative to ${workdir} or absolute). Returns at most ${limits.maxOutputBytes} bytes from offset.`,
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          offset: { type: 'integer', minimum: 0, description: 'byte offset; default 0' },
          limit: { type: 'integer', minimum: 0, description: `bytes to read; 0 or absent: up to ${limits.maxOutputBytes}` },
        },
        required: ['path'],
        additionalProperties: false,
      },
    },
    {
      name: 'write_file',
      description: `Create or overwrite a file with the given content (at most ${limits.maxFileBytes} bytes); parent folders are created.`,
      parameters: {
        type: 'object',
        properties: { path: { type: 'string' }, content: { type: 'string' } },
        required: ['path', 'content'],
        additionalProperties: false,
      },
    },
    {
      name: 'edit',
      description: 'Replace old_text with new_text in a file. old_text must occur exactly once in the file.',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          old_text: { type: 'string', minLength: 1 },
          new_text: { type: 'string' },
        },
        required: ['path', 'old_text', 'new_text'],
        additionalProperties: false,
      },
    },
    {
      name: 'submit',
      description: 'Finish the episode: the workspace as it is now is scored. No further actions are accepted.',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
    },
  ] satisfies ToolSpec[]);
}
