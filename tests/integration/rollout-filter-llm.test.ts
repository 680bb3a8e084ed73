/**
 * The LLM path end to end on the real Docker engine: `codemidas filter` and `codemidas rollout` as
 * child processes, their llm agent talking through the real `openai` HTTP client to a scripted
 * OpenAI-compatible server started here, which replays a correct solver (writes the reference files,
 * submits) or a wrong one (looks around, submits untouched) per task and attempt. The suite is a copy
 * of three sample tasks in a temporary folder; containers are removed by the CLI and checked here.
 */
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../../src/bench/server-process.js';
import { projectRoot } from '../../src/project-root.js';
import { parseTrajectories } from '../../src/rollouts/trajectory-schema.js';
import { scriptedSolver, startFakeOpenAiServer, type FakeOpenAiServer } from '../unit/fake-openai-server.js';

const root = projectRoot();
const BIN = join(root, 'bin', 'codemidas.js');
const TASKS = ['slugify', 'to-roman', 'from-roman'];

let work: string;
let environments: string;
/** task name → its prompt, and prompt → reference files. */
const promptOf = new Map<string, string>();
const solutionOf = new Map<string, Map<string, string>>();

function taskOfPrompt(prompt: string): string {
  for (const [name, p] of promptOf) if (p === prompt) return name;
  throw new Error(`the fake model got a prompt of no known task: ${prompt.slice(0, 80)}`);
}

async function readSolution(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const full = join(entry.parentPath, entry.name);
      files.set(full.slice(dir.length + 1), await readFile(full, 'utf8'));
    }
  }
  return files;
}

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 400_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'codemidas-rollout-llm-'));
  environments = join(work, 'environments');
  const suiteDir = join(environments, 'sample');
  for (const name of TASKS) await cp(join(root, 'environments', 'sample', name), join(suiteDir, name), { recursive: true });
  await cp(join(root, 'environments', 'sample', '_base'), join(suiteDir, '_base'), { recursive: true });
  const suite = JSON.parse(await readFile(join(root, 'environments', 'sample', 'suite.json'), 'utf8'));
  await writeFile(join(suiteDir, 'suite.json'), JSON.stringify({ ...suite, tasks: TASKS }, null, 2));
  for (const name of TASKS) {
    promptOf.set(name, JSON.parse(await readFile(join(suiteDir, name, 'task.json'), 'utf8')).prompt);
    solutionOf.set(name, await readSolution(join(suiteDir, name, 'solution')));
  }
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

async function filterWith(plan: Record<string, (attempt: number) => 'correct' | 'wrong'>, out: string): Promise<{ stdout: string; fake: FakeOpenAiServer }> {
  const fake = await startFakeOpenAiServer(
    scriptedSolver({
      choose: (prompt, attempt) => plan[taskOfPrompt(prompt)]!(attempt),
      solution: (prompt) => solutionOf.get(taskOfPrompt(prompt))!,
    }),
  );
  try {
    const run = await runCli([
      'filter', '--suite', 'sample', '--environments', environments, '--sandbox', 'docker',
      '--rollouts', '2', '--agent', 'llm', '--base-url', fake.baseUrl, '--model', 'scripted-model', '--out', out,
    ]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    return { stdout: run.stdout, fake };
  } finally {
    await fake.close();
  }
}

describe('codemidas filter with the llm agent against a scripted OpenAI-compatible server', () => {
  it('keeps exactly the tasks where both outcomes occur, and a stronger policy re-admits and retires by the same band', async () => {
    const out1 = join(work, 'filter-1.jsonl');
    const first = await filterWith(
      { slugify: () => 'correct', 'to-roman': () => 'wrong', 'from-roman': (attempt) => (attempt % 2 === 0 ? 'correct' : 'wrong') },
      out1,
    );
    expect(first.stdout).toMatch(/kept\s+sample\/from-roman: mixed: 1 of 2 attempts solved it/);
    expect(first.stdout).toMatch(/retired\s+sample\/slugify: all-pass: 2 of 2/);
    expect(first.stdout).toMatch(/retired\s+sample\/to-roman: all-fail: 0 of 2/);
    const suiteDir = join(environments, 'sample');
    const suite1 = JSON.parse(await readFile(join(suiteDir, 'suite.json'), 'utf8'));
    expect(suite1.tasks).toEqual(['from-roman']);
    expect(suite1.retired).toEqual(['slugify', 'to-roman']);
    expect(JSON.parse(await readFile(join(suiteDir, 'from-roman', 'task.json'), 'utf8')).difficulty).toBe(0.5);
    expect(JSON.parse(await readFile(join(suiteDir, 'slugify', 'task.json'), 'utf8')).difficulty).toBe(1);
    const funnel = JSON.parse(await readFile(join(suiteDir, 'funnel.json'), 'utf8'));
    expect(funnel.rollouts.dropCounts).toEqual({ 'rollouts:all-fail': 1, 'rollouts:all-pass': 1 });

    // Trajectories: one line per episode, every one valid against the published schema.
    const trajectories = parseTrajectories(await readFile(out1, 'utf8'));
    expect(trajectories).toHaveLength(6);
    for (const t of trajectories) {
      expect(t.agent).toEqual({ name: 'llm', model: 'scripted-model' });
      expect(t.messages[0]?.role).toBe('system');
      expect(t.messages[1]).toEqual({ role: 'user', content: promptOf.get(t.task.slice('sample/'.length)) });
      expect(t.outcome).toBe('SCORED');
      expect(t.agentStatus).toBe('submitted');
      expect(t.actions[0]).toEqual({ kind: 'shell', command: 'ls', timeoutMs: 0 });
      expect(t.observations[0]?.exitCode).toBe(0);
      expect(t.actions.at(-1)).toEqual({ kind: 'submit' });
    }
    const solvedBy = (task: string): number => trajectories.filter((t) => t.task === `sample/${task}` && t.solved).length;
    expect([solvedBy('slugify'), solvedBy('to-roman'), solvedBy('from-roman')]).toEqual([2, 0, 1]);
    // Every request went through the real HTTP client: 6 episodes, each a shell turn, then writes or not, then submit.
    expect(first.fake.requests.length).toBeGreaterThanOrEqual(12);

    // A stronger policy: to-roman now mixed (re-admitted), from-roman always solved (retired).
    const second = await filterWith(
      { slugify: () => 'correct', 'to-roman': (attempt) => (attempt % 2 === 0 ? 'wrong' : 'correct'), 'from-roman': () => 'correct' },
      join(work, 'filter-2.jsonl'),
    );
    expect(second.stdout).toMatch(/re-admitted 1/);
    const suite2 = JSON.parse(await readFile(join(suiteDir, 'suite.json'), 'utf8'));
    expect(suite2.tasks).toEqual(['to-roman']);
    expect(suite2.retired).toEqual(['slugify', 'from-roman']);
  }, 600_000);
});

describe('codemidas rollout against codemidas serve', () => {
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    server = await startServerProcess({ environmentsDir: join(root, 'environments'), extraArgs: ['--sandbox', 'docker'] });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('mixes oracle and null in each group: real rewards, advantages of +sqrt(2) and -1/sqrt(2), episodes per minute printed', async () => {
    const out = join(work, 'rollout.jsonl');
    const run = await runCli([
      'rollout', '--server', server!.address, '--suite', 'sample', '--agent', 'oracle,null,null', '--group-size', '3', '--groups', '2',
      '--environments', join(root, 'environments'), '--out', out,
    ]);
    expect(run.code, `${run.stdout}\n${run.stderr}\n${server!.outputTail()}`).toBe(0);
    expect(run.stdout).toMatch(/6 episodes in 2 groups in [\d.]+ s: [\d.]+ episodes per minute/);
    expect(run.stderr).toMatch(/\[#+\] 2\/2 groups/);
    const trajectories = parseTrajectories(await readFile(out, 'utf8'));
    expect(trajectories).toHaveLength(6);
    for (const t of trajectories) {
      const oracle = t.group.member === 0;
      expect(t.agent.name).toBe(oracle ? 'oracle' : 'null');
      expect(t.reward, `${t.task} member ${t.group.member}: ${t.outcome}, ${t.agentStatus} (${t.agentReason}); ${t.scoreDetail}`).toBe(oracle ? 1 : 0);
      // rewards [1, 0, 0]: mean 1/3, population std sqrt(2)/3, so (r - mean) / std = sqrt(2) or -1/sqrt(2).
      expect(t.advantage).toBeCloseTo(oracle ? Math.SQRT2 : -1 / Math.SQRT2, 5);
    }
  }, 600_000);
});
