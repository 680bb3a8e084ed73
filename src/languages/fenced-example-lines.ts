/**
 * The example lines of a prompt: the trimmed lines inside its ``` fences that `shown` matches (the
 * comment that shows a call's result, such as `// → ` or `// panics`).
 */
export function fencedExampleLines(prompt: string, shown: RegExp): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const raw of prompt.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('```')) fenced = !fenced;
    else if (fenced && shown.test(line)) out.push(line);
  }
  return out;
}
