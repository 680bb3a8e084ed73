import type { Action, StepResult } from '../episodes/types.js';

/**
 * Keeps the head and the tail of `text` within `maxChars` (the middle of a long log is the least
 * useful part), saying how much was cut.
 */
export function truncateHeadTail(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const marker = (cut: number): string => `\n[... ${cut} characters cut ...]\n`;
  const room = Math.max(0, maxChars - marker(text.length).length);
  const head = Math.ceil(room / 2);
  const tail = room - head;
  return `${text.slice(0, head)}${marker(text.length - head - tail)}${tail > 0 ? text.slice(-tail) : ''}`;
}

/** A step's observation as the text the model reads, within `maxChars`. */
export function formatObservation(action: Action, result: StepResult, maxChars: number): string {
  const o = result.observation;
  const flags = [o.timedOut ? 'timed out' : '', o.truncated ? 'output cut by the server' : ''].filter(Boolean).join(', ');
  let text: string;
  if (action.kind === 'read_file' && o.exitCode === 0) {
    text = o.stdout;
  } else if (action.kind === 'write_file' || action.kind === 'edit') {
    text = o.exitCode === 0 ? `ok: ${action.kind === 'edit' ? 'edited' : 'wrote'} ${action.path}` : `error (exit ${o.exitCode}): ${o.stderr || o.stdout}`;
  } else if (action.kind === 'submit') {
    text = 'submitted: the workspace will be scored';
  } else {
    const parts = [`exit code: ${o.exitCode}${flags ? ` (${flags})` : ''}`];
    if (o.stdout) parts.push(`stdout:\n${o.stdout}`);
    if (o.stderr) parts.push(`stderr:\n${o.stderr}`);
    text = parts.join('\n');
  }
  if (result.truncated && !result.terminated) text += '\n[the episode budget is spent: no further actions are accepted]';
  return truncateHeadTail(text, maxChars);
}
