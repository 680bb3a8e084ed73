/**
 * The JSON value of a model's answer, or undefined when there is none: the whole answer, else the
 * inside of its first fenced block (```json ... ```), else the span from its first `{` to its last
 * `}`. Models wrap JSON in prose and fences however they are asked; a malformed answer is a value
 * the caller treats as "nothing proposed", never an exception.
 */
export function parseJsonAnswer(answer: string): unknown {
  const attempts = [answer.trim()];
  const fenced = /```(?:json)?\s*\n([\s\S]*?)```/i.exec(answer);
  if (fenced?.[1] !== undefined) attempts.push(fenced[1].trim());
  const first = answer.indexOf('{');
  const last = answer.lastIndexOf('}');
  if (first >= 0 && last > first) attempts.push(answer.slice(first, last + 1));
  for (const text of attempts) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // next form
    }
  }
  return undefined;
}
