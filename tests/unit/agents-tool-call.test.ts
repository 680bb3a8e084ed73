import { describe, expect, it } from 'vitest';
import { toolCallToAction } from '../../src/agents/tool-call-to-action.js';
import { resolveLimits } from '../../src/config/limits.js';
import { createToolSpecs } from '../../src/episodes/tool-schemas.js';

const tools = createToolSpecs(resolveLimits({}), '/workspace');

describe('a tool call checked against the tool schemas offered at Reset', () => {
  it('maps each tool to its action, with the optional arguments defaulted', () => {
    expect(toolCallToAction('shell', '{"command": "ls"}', tools)).toEqual({ ok: true, action: { kind: 'shell', command: 'ls', timeoutMs: 0 } });
    expect(toolCallToAction('read_file', '{"path": "a.py", "limit": 10}', tools)).toEqual({ ok: true, action: { kind: 'read_file', path: 'a.py', offset: 0, limit: 10 } });
    expect(toolCallToAction('edit', '{"path": "a", "old_text": "x", "new_text": ""}', tools)).toEqual({ ok: true, action: { kind: 'edit', path: 'a', oldText: 'x', newText: '' } });
    expect(toolCallToAction('submit', '', tools)).toEqual({ ok: true, action: { kind: 'submit' } });
  });

  it('answers a mistyped, negative, empty or non-object argument with the problem and an example', () => {
    expect(toolCallToAction('shell', '{"command": 3}', tools)).toMatchObject({ ok: false, error: expect.stringMatching(/'command' must be a string; e\.g\. \{"command":"\.\.\."\}/) });
    expect(toolCallToAction('read_file', '{"path": "a", "offset": -1}', tools)).toMatchObject({ ok: false, error: expect.stringMatching(/'offset' must be an integer >= 0/) });
    expect(toolCallToAction('edit', '{"path": "a", "old_text": "", "new_text": "y"}', tools)).toMatchObject({ ok: false, error: expect.stringMatching(/'old_text' must be a non-empty string/) });
    expect(toolCallToAction('write_file', '["a.py"]', tools)).toMatchObject({ ok: false, error: expect.stringMatching(/must be a JSON object/) });
  });

  it('names only the tools the episode was offered', () => {
    const shellOnly = tools.filter((t) => t.name === 'shell' || t.name === 'submit');
    expect(toolCallToAction('write_file', '{}', shellOnly)).toEqual({ ok: false, error: "error: unknown tool 'write_file'; the tools are shell, submit" });
  });
});
