/**
 * The Python the Go, Rust and Java runtimes share (src/languages/compiled-runtime/), and the token
 * mutants of their mutate drivers, run with Debian's python3 on this machine: a bounded run keeps
 * the first bytes of an endless stream and returns at its timeout, a process that escaped the group
 * and holds the pipe is not waited for, an outcomes file is read only as a regular file; the
 * mutators add string literals and mirrored calls, and leave a panic's or exception's message alone.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

const PYTHON = '/usr/bin/python3';
const LANGUAGES = join(projectRoot(), 'src', 'languages');

/** Runs `script` with the shared runtime (and `runtimeDir`, when given) importable; its stdout parsed as JSON. */
function python(script: string, runtimeDir?: string): unknown {
  const paths = [join(LANGUAGES, 'compiled-runtime'), ...(runtimeDir ? [join(LANGUAGES, runtimeDir, 'runtime')] : [])];
  const run = spawnSync(PYTHON, ['-I', '-c', `import sys; sys.path[:0] = ${JSON.stringify(paths)}\n${script}`], { encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`python3 exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

describe('bounded_run', () => {
  it('keeps the first bytes of an endless stream, and stops the command at its timeout', () => {
    const [code, kept, seconds] = python(`
import json, time, bounded_run
t0 = time.monotonic()
code, out, err = bounded_run.run_bounded(["sh", "-c", "yes xxxxxxxx"], None, None, 2, keep=1000)
print(json.dumps([code, len(out), time.monotonic() - t0]))
`) as [number, number, number];
    expect(code).toBe(-1);
    expect(kept).toBe(1000);
    expect(seconds).toBeLessThan(10);
  });

  it('does not wait for a process that escaped the group and holds the output pipe', () => {
    const [code, out, seconds] = python(`
import json, time, bounded_run
t0 = time.monotonic()
code, out, err = bounded_run.run_bounded(["sh", "-c", "setsid sleep 30 & echo started"], None, None, 20)
print(json.dumps([code, out, time.monotonic() - t0]))
`) as [number, string, number];
    expect(code).toBe(0);
    expect(out).toBe('started\n');
    expect(seconds).toBeLessThan(10);
  });

  it('keeps stdout and stderr apart when asked, and feeds stdin', () => {
    expect(python(`
import json, bounded_run
print(json.dumps(bounded_run.run_bounded(["sh", "-c", "cat; echo err >&2"], None, None, 20, stdin_text="in\\n", merge=False)))
`)).toEqual([0, 'in\n', 'err\n']);
  });

  it('reads an outcomes file only as a regular file, bounded, skipping lines that do not parse', () => {
    expect(python(`
import json, os, tempfile, bounded_run
d = tempfile.mkdtemp()
regular, fifo, link = (os.path.join(d, n) for n in ("o.jsonl", "fifo", "link"))
with open(regular, "w") as f:
    f.write('{"id": "a"}\\nnot json\\n{"id": "b"}\\n' + "x" * 100 + "\\n")
os.mkfifo(fifo)
os.symlink(regular, link)
print(json.dumps([bounded_run.read_jsonl(regular), bounded_run.read_jsonl(fifo), bounded_run.read_jsonl(link), bounded_run.read_jsonl(os.path.join(d, "none")), len(bounded_run.read_lines(regular, total=20))]))
`)).toEqual([[{ id: 'a' }, { id: 'b' }], [], [], [], 2]);
  });
});

describe('the token mutants of the compiled languages', () => {
  const mutantsOf = (language: string, source: string): string[] =>
    python(`
import json, mutate_driver
text = ${JSON.stringify(source)}
print(json.dumps([m[3].split(": ", 1)[1] for m in mutate_driver.mutants(text, 0, len(text))]))
`, language) as string[];

  it('Rust: string literals and mirrored calls, not a panic\'s or expect\'s message', () => {
    const found = mutantsOf('rust', 'if s.is_empty() { panic!("empty input"); }\nlet t = s.trim_start().to_uppercase();\nlet n = x.parse::<u8>().expect("a number");\nv.sort();\nformat!("{}-", t)');
    expect(found).toEqual(expect.arrayContaining(['trim_start → trim_end', 'to_uppercase → to_lowercase', 'sort → reverse', '"{}-" → ""']));
    expect(found.filter((m) => m.includes('empty input') || m.includes('a number'))).toEqual([]);
  });

  it('Java: string literals and mirrored calls, not an exception\'s message', () => {
    const found = mutantsOf('java', 'if (s.isEmpty()) { throw new IllegalArgumentException("empty " + s); }\nString t = s.toLowerCase();\nreturn t.startsWith("-") ? "" : String.join("-", t, String.valueOf(Math.max(a, b)));');
    expect(found).toEqual(expect.arrayContaining(['toLowerCase → toUpperCase', 'startsWith → endsWith', '"-" → ""', '"" → "x"', 'max → min']));
    expect(found.filter((m) => m.includes('empty'))).toEqual([]);
  });

  it('Go: string literals and mirrored calls, not a panic\'s message', () => {
    const found = mutantsOf('go', 'if s == "" {\n\tpanic("empty input")\n}\nif strings.HasPrefix(s, "-") {\n\treturn strings.ToUpper(s)\n}');
    expect(found).toEqual(expect.arrayContaining(['"" → "x"', 'HasPrefix → HasSuffix', '"-" → ""', 'ToUpper → ToLower']));
    expect(found.filter((m) => m.includes('empty input'))).toEqual([]);
  });
});
