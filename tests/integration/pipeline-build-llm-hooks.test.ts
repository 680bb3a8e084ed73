/**
 * `codemidas build` with the LLM hooks on, end to end on the real Docker engine, the hooks talking
 * through the real `openai` HTTP client to a scripted OpenAI-compatible server started here: the spec
 * writer's rewrite reaches task.json, the proposer's inputs are recorded by running the original
 * code (source `llm`), and the reviewer's flagged case is dropped from the hidden tests.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../unit/fake-openai-server.js';

const root = projectRoot();
const MARK = 'This statement was rewritten by the scripted model.';
const DRAFT_HEADING = 'Draft statement (its examples were recorded by running the reference):\n\n';

let work: string;
let fake: FakeOpenAiServer;
const asked = { spec: 0, propose: 0, review: 0, other: 0 };

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'codemidas-llm-build-'));
  fake = await startFakeOpenAiServer((body) => {
    const system = body.messages[0]?.content ?? '';
    const user = body.messages[1]?.content ?? '';
    if (system.includes('task statement')) {
      asked.spec++;
      // The draft with one sentence added: keeps the heading, signature and examples, so it is accepted.
      const draft = user.split(DRAFT_HEADING)[1] ?? '';
      return { content: draft.replace('\n\n', `\n\n${MARK}\n\n`) };
    }
    if (system.includes('propose test inputs')) {
      asked.propose++;
      // An expected result is offered too: it must never reach the tests.
      return { content: '{"inputs": [{"args": [{"t": "str", "v": "1011"}], "kwargs": {}, "init": null, "expected": "bogus"}, {"args": [{"t": "int", "v": "7"}], "kwargs": {}, "init": null}]}' };
    }
    if (system.includes('review the hidden test cases')) {
      asked.review++;
      // the last case whose call the spec does not show as an example (a shown one is never dropped)
      const blocks = [...user.matchAll(/^\[([^\]]+)\]\n(?:#[^\n]*\n)*(>>> [^\n]*)/gm)].map((m) => ({ id: m[1], call: m[2] ?? '' }));
      const spec = user.slice(0, user.indexOf(`[${blocks[0]?.id}]`));
      const unshown = blocks.filter((b) => !spec.includes(b.call));
      return { content: JSON.stringify({ drop: unshown.slice(-1).map(({ id }) => ({ id, why: 'scripted' })) }) };
    }
    asked.other++;
    return { content: 'unexpected request' };
  });
});

afterAll(async () => {
  await fake?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

function build(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'codemidas.js'), 'build', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 900_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('codemidas build with --llm-base-url', () => {
  it('rewrites the spec, records proposed inputs on the original code, and drops the reviewed-out case', async () => {
    const out = join(work, 'out');
    const run = await build([join(root, 'examples', 'parsekit'), '--suite', 'llmkit', '--out', out, '--max-tasks', '2', '--llm-base-url', fake.baseUrl, '--llm-model', 'scripted-model']);
    expect(run.code, run.output.slice(-4000)).toBe(0);
    expect(run.output).toMatch(/llm fallbacks: 0/);
    expect(asked.other).toBe(0);
    expect(asked.spec).toBeGreaterThanOrEqual(2);
    expect(asked.propose).toBeGreaterThanOrEqual(2);
    expect(asked.review).toBeGreaterThanOrEqual(2);

    const suiteDir = join(out, 'llmkit');
    const names = JSON.parse(await readFile(join(suiteDir, 'suite.json'), 'utf8')).tasks as string[];
    expect(names).toHaveLength(2);
    let llmCases = 0;
    for (const name of names) {
      const task = JSON.parse(await readFile(join(suiteDir, name, 'task.json'), 'utf8'));
      expect(task.prompt).toContain(MARK);
      const report = JSON.parse(await readFile(join(suiteDir, name, 'report.json'), 'utf8'));
      expect(JSON.stringify(report)).toMatch(/"droppedByReview":\s*1/);
      const hidden = join(suiteDir, name, 'hidden');
      for (const file of await readdir(hidden, { recursive: true })) {
        if (!String(file).endsWith('.json')) continue;
        const text = await readFile(join(hidden, String(file)), 'utf8');
        expect(text).not.toContain('bogus');
        llmCases += (text.match(/"source":\s*"llm"/g) ?? []).length;
      }
    }
    expect(llmCases).toBeGreaterThan(0);
  }, 900_000);
});
