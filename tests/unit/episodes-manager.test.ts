import { afterEach, describe, expect, it } from 'vitest';
import { resolveLimits, type LimitsInput } from '../../src/config/limits.js';
import { createEpisodeManager, type EpisodeManager } from '../../src/episodes/episode-manager.js';
import type { Action } from '../../src/episodes/types.js';
import { CodeMidasError, InvalidArgumentError, type ErrorCode } from '../../src/errors.js';
import { createSilentLogger } from '../../src/logging.js';
import { encodeReset } from '../../src/server/encode-responses.js';
import { FakeProvider, FakeScorer, makeCatalog, makeTask, WORKSPACE } from './episodes-fakes.js';

const TASK = 'sample/add';
const shell = (command: string, timeoutMs = 0): Action => ({ kind: 'shell', command, timeoutMs });
const submit: Action = { kind: 'submit' };

interface Harness {
  manager: EpisodeManager;
  provider: FakeProvider;
  scorer: FakeScorer;
  clock: { now: number };
}

let harnesses: Harness[] = [];

function setup(limits: LimitsInput = {}, tasks = [makeTask()]): Harness {
  const provider = new FakeProvider();
  const scorer = new FakeScorer();
  const clock = { now: 1_000_000 };
  const manager = createEpisodeManager({
    provider,
    catalog: makeCatalog(tasks),
    scorer,
    logger: createSilentLogger(),
    limits: resolveLimits(limits),
    readWorkspace: async () => WORKSPACE,
    now: () => clock.now,
  });
  const h = { manager, provider, scorer, clock };
  harnesses.push(h);
  return h;
}

afterEach(async () => {
  await Promise.all(harnesses.map((h) => h.manager.shutdown({ graceMs: 100 })));
  harnesses = [];
});

async function expectCode(promise: Promise<unknown> | (() => unknown), code: ErrorCode, message?: RegExp): Promise<void> {
  const err = await (async () => {
    try {
      await (typeof promise === 'function' ? promise() : promise);
    } catch (e) {
      return e;
    }
    return null;
  })();
  expect(err, `expected ${code}`).toBeInstanceOf(CodeMidasError);
  expect((err as CodeMidasError).code).toBe(code);
  if (message) expect((err as Error).message).toMatch(message);
}

describe('EpisodeManager.reset', () => {
  it('starts an episode sandbox from the language image, uploads the workspace as uid 1000, and offers five tools', async () => {
    const { manager, provider } = setup();
    const reset = await manager.reset(TASK);
    expect(reset.episodeId).toMatch(/^ep-/);
    expect(reset.prompt).toBe('Implement add.');
    expect(reset.workdir).toBe('/workspace');
    expect(reset.tools.map((t) => t.name)).toEqual(['shell', 'read_file', 'write_file', 'edit', 'submit']);
    expect(reset.limits.maxSteps).toBe(100);
    const sandbox = provider.sandboxes[0]!;
    expect(sandbox.spec.role).toBe('episode');
    expect(sandbox.spec.image).toBe('codemidas/python:fake');
    expect(sandbox.spec.labels['codemidas.episode']).toBe(reset.episodeId);
    expect(sandbox.files.get('/workspace/pkg/add.py')?.toString()).toContain('NotImplementedError');
  });

  it("hands every episode of a task the same tool specs, encoded once for the wire", async () => {
    const { manager } = setup();
    const first = await manager.reset(TASK);
    const second = await manager.reset(TASK);
    expect(second.tools).toBe(first.tools);
    const wire = encodeReset(first)['tools'] as Array<{ name: string; parameters_json: string }>;
    expect(encodeReset(second)['tools']).toBe(wire);
    expect(wire.map((t) => t.name)).toEqual(['shell', 'read_file', 'write_file', 'edit', 'submit']);
    expect(JSON.parse(wire[0]!.parameters_json)).toEqual(first.tools[0]!.parameters);
    // A different spec list (another task's) is encoded on its own.
    const other = encodeReset({ ...first, tools: [first.tools[1]!] })['tools'] as Array<{ name: string }>;
    expect(other.map((t) => t.name)).toEqual(['read_file']);
  });

  it('starts from the baked workspace image once it is built, uploading nothing; uploads until then', async () => {
    const { manager, provider } = setup();
    provider.workspaceImage = 'codemidas/workspace:baked';
    // The first Reset finds no image ready: it starts the build and uploads.
    await manager.reset(TASK);
    expect(provider.sandboxes[0]!.spec.image).toBe('codemidas/python:fake');
    expect(provider.sandboxes[0]!.files.size).toBeGreaterThan(0);
    await manager.prepareWorkspaceImages([TASK]);
    expect(provider.workspaceImageCalls).toBe(1); // the build started by Reset, shared
    await manager.reset(TASK);
    const baked = provider.sandboxes[1]!;
    expect(baked.spec.image).toBe('codemidas/workspace:baked');
    expect(baked.spec.scrub).toBeUndefined();
    expect(baked.files.size).toBe(0);
  });

  it('keeps uploading where the adapter cannot bake a workspace image', async () => {
    const { manager, provider } = setup();
    await manager.prepareWorkspaceImages();
    await manager.reset(TASK);
    expect(provider.sandboxes[0]!.spec.image).toBe('codemidas/python:fake');
    expect(provider.sandboxes[0]!.files.get('/workspace/pkg/add.py')).toBeDefined();
  });

  it('refuses an unknown task with NOT_FOUND', async () => {
    const { manager } = setup();
    await expectCode(() => manager.reset('sample/nope'), 'NOT_FOUND', /unknown task 'sample\/nope'/);
  });

  it('refuses past the episode capacity with RESOURCE_EXHAUSTED, and admits again after a Close', async () => {
    const { manager } = setup({ maxEpisodes: 2 });
    const a = await manager.reset(TASK);
    await manager.reset(TASK);
    await expectCode(() => manager.reset(TASK), 'RESOURCE_EXHAUSTED', /2 of 2 episodes/);
    await expectCode(() => manager.resetGroup(TASK, 2), 'RESOURCE_EXHAUSTED');
    await manager.close({ episodeId: a.episodeId });
    await expect(manager.reset(TASK)).resolves.toBeTruthy();
  });

  it('calls the reaper at start', async () => {
    const { manager, provider } = setup();
    await manager.start();
    expect(provider.reaps).toBe(1);
  });
});

describe('EpisodeManager.step', () => {
  it('returns the kept answer for a repeated step_index without running the command again', async () => {
    const { manager, provider } = setup();
    const { episodeId } = await manager.reset(TASK);
    const first = await manager.step(episodeId, 0, shell('echo hi'));
    expect(first.observation.stdout).toBe('hi\n');
    const again = await manager.step(episodeId, 0, shell('echo something else'));
    expect(again).toBe(first);
    expect(provider.sandboxes[0]!.execCount).toBe(1);
    await manager.step(episodeId, 1, shell('true'));
    expect((await manager.step(episodeId, 0, shell('x'))).observation.stdout).toBe('hi\n');
  });

  it('shares one run between concurrent calls with the same step_index', async () => {
    const { manager, provider } = setup();
    const { episodeId } = await manager.reset(TASK);
    const [a, b] = await Promise.all([manager.step(episodeId, 0, shell('sleep 0.05')), manager.step(episodeId, 0, shell('sleep 0.05'))]);
    expect(a).toBe(b);
    expect(provider.sandboxes[0]!.execCount).toBe(1);
  });

  it('refuses a gap in step_index with FAILED_PRECONDITION naming the next index', async () => {
    const { manager } = setup();
    const { episodeId } = await manager.reset(TASK);
    await expectCode(() => manager.step(episodeId, 1, shell('true')), 'FAILED_PRECONDITION', /next step_index is 0/);
    await manager.step(episodeId, 0, shell('true'));
    await expectCode(() => manager.step(episodeId, 5, shell('true')), 'FAILED_PRECONDITION', /next step_index is 1/);
  });

  it('refuses steps after submit (FAILED_PRECONDITION) but replays the submit answer', async () => {
    const { manager } = setup();
    const { episodeId } = await manager.reset(TASK);
    const done = await manager.step(episodeId, 0, submit);
    expect(done.terminated).toBe(true);
    await expectCode(() => manager.step(episodeId, 1, shell('true')), 'FAILED_PRECONDITION', /submitted/);
    expect(await manager.step(episodeId, 0, submit)).toBe(done);
  });

  it('refuses steps after close with FAILED_PRECONDITION, and unknown episodes with NOT_FOUND', async () => {
    const { manager, provider } = setup();
    const { episodeId } = await manager.reset(TASK);
    expect(await manager.close({ episodeId })).toBe(1);
    expect(await manager.close({ episodeId })).toBe(0);
    expect(provider.sandboxes[0]!.destroyed).toBe(true);
    await expectCode(() => manager.step(episodeId, 0, shell('true')), 'FAILED_PRECONDITION', /closed/);
    await expectCode(() => manager.step('ep-nope', 0, shell('true')), 'NOT_FOUND');
  });

  it('reports a command timeout as an observation and keeps the episode usable', async () => {
    const { manager } = setup();
    const { episodeId } = await manager.reset(TASK);
    const slow = await manager.step(episodeId, 0, shell('sleep 1000', 50));
    expect(slow.observation.timedOut).toBe(true);
    expect(slow.observation.durationMs).toBeLessThan(1000);
    const next = await manager.step(episodeId, 1, shell('echo alive'));
    expect(next.observation.stdout).toBe('alive\n');
  });

  it('clamps a command limit to the ceiling and to the deadline of the call', async () => {
    const h = setup({ maxCommandMs: 200, defaultCommandMs: 100 });
    const seen: number[] = [];
    h.provider.handler = async (_c, options) => {
      seen.push(options.timeoutMs);
      return { exitCode: 0, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 1 };
    };
    const { episodeId } = await h.manager.reset(TASK);
    await h.manager.step(episodeId, 0, shell('x'));
    await h.manager.step(episodeId, 1, shell('x', 5_000));
    await h.manager.step(episodeId, 2, shell('x', 150), { deadline: new Date(Date.now() + 300) });
    expect(seen[0]).toBe(100);
    expect(seen[1]).toBe(200);
    expect(seen[2]).toBeLessThanOrEqual(150);
    expect(seen[2]).toBeGreaterThan(0);
  });

  it('Close during a step ends it with FAILED_PRECONDITION and destroys the sandbox', async () => {
    const { manager, provider } = setup();
    const { episodeId } = await manager.reset(TASK);
    const running = manager.step(episodeId, 0, shell('sleep 30')).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 20));
    expect(await manager.close({ episodeId })).toBe(1);
    const err = await running;
    expect(err).toBeInstanceOf(CodeMidasError);
    expect((err as CodeMidasError).code).toBe('FAILED_PRECONDITION');
    expect(provider.sandboxes[0]!.destroyed).toBe(true);
  });

  it('a step the caller cancels does not use up its step_index; the retry runs it', async () => {
    const { manager, provider } = setup();
    const { episodeId } = await manager.reset(TASK);
    const controller = new AbortController();
    const cancelled = manager.step(episodeId, 0, shell('sleep 30'), { signal: controller.signal }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    expect(((await cancelled) as CodeMidasError).code).toBe('DEADLINE_EXCEEDED');
    const retry = await manager.step(episodeId, 0, shell('echo again'));
    expect(retry.observation.stdout).toBe('again\n');
    expect(provider.sandboxes[0]!.execCount).toBe(2);
  });

  it('fails the episode with ABORTED when the sandbox dies; Reward then reports INFRA_ERROR', async () => {
    const { manager } = setup();
    const { episodeId } = await manager.reset(TASK);
    await expectCode(() => manager.step(episodeId, 0, shell('die')), 'ABORTED');
    await expectCode(() => manager.step(episodeId, 0, shell('true')), 'ABORTED');
    const reward = await manager.reward(episodeId);
    expect(reward.outcome).toBe('INFRA_ERROR');
    expect(manager.activeCount).toBe(0);
  });

  it('scores an episode whose own commands stopped its sandbox: the step says so, later steps are refused, Reward is SCORED', async () => {
    const { manager, provider } = setup();
    const solved = (await manager.reset(TASK)).episodeId;
    const unsolved = (await manager.reset(TASK)).episodeId;
    await manager.step(solved, 0, { kind: 'write_file', path: 'pkg/add.py', content: 'def add(a, b):\n    return a + b\n' });
    await manager.step(unsolved, 0, shell('true'));
    for (const episodeId of [solved, unsolved]) {
      const stopped = await manager.step(episodeId, 1, shell('die-inside'));
      expect(stopped.terminated).toBe(true);
      expect(stopped.observation.exitCode).toBe(137);
      expect(stopped.observation.stderr).toMatch(/the sandbox stopped during this step: its processes ended \(exit code 137\).*call Reward/);
      // A retry of the same index gets the same answer; the next index is refused, naming the cause.
      expect(await manager.step(episodeId, 1, shell('die-inside'))).toEqual(stopped);
      await expectCode(() => manager.step(episodeId, 2, shell('true')), 'FAILED_PRECONDITION', /has ended: .*exit code 137.*call Reward/);
    }
    const [won, lost] = [await manager.reward(solved), await manager.reward(unsolved)];
    expect([won.outcome, won.reward, lost.outcome, lost.reward]).toEqual(['SCORED', 1, 'SCORED', 0]);
    expect(won.detail).toMatch(/the sandbox had stopped before scoring \(its processes ended \(exit code 137\)\)/);
    // The stopped sandboxes were kept for the read-out, and are removed once scored.
    await expect.poll(() => provider.live.length).toBe(0);
  });

  it('scores a sandbox that stopped between steps (a background kill) as it stands', async () => {
    const { manager, provider } = setup();
    const { episodeId } = await manager.reset(TASK);
    await manager.step(episodeId, 0, { kind: 'write_file', path: 'pkg/add.py', content: 'def add(a, b):\n    return a + b\n' });
    const sandbox = provider.sandboxes[0]!;
    sandbox.dead = true;
    sandbox.end = { by: 'inside', reason: 'its processes ended (exit code 137)' };
    const reward = await manager.reward(episodeId);
    expect([reward.outcome, reward.reward]).toEqual(['SCORED', 1]);
  });

  it('reports INFRA_ERROR, not a score, for a sandbox stopped from outside between steps', async () => {
    const { manager, provider } = setup();
    const { episodeId } = await manager.reset(TASK);
    await manager.step(episodeId, 0, { kind: 'write_file', path: 'pkg/add.py', content: 'def add(a, b):\n    return a + b\n' });
    const sandbox = provider.sandboxes[0]!;
    sandbox.dead = true;
    sandbox.end = { by: 'outside', reason: 'the container was killed from outside CodeMidas (signal 9)' };
    const reward = await manager.reward(episodeId);
    expect(reward.outcome).toBe('INFRA_ERROR');
    expect(reward.detail).toMatch(/stopped from outside before scoring: the container was killed from outside/);
  });

  it('answers a command the relay refuses (a NUL byte) with an observation, and the episode goes on', async () => {
    const { manager, provider } = setup();
    const { episodeId } = await manager.reset(TASK);
    provider.sandboxes[0]!.failNextExec = new InvalidArgumentError('command', 'the command contains a NUL byte');
    const refused = await manager.step(episodeId, 0, shell('echo a\u0000b'));
    expect(refused.observation.exitCode).toBe(1);
    expect(refused.observation.stderr).toMatch(/shell: command: the command contains a NUL byte/);
    expect((await manager.step(episodeId, 1, shell('echo ok'))).observation.stdout).toBe('ok\n');
    expect((await manager.reward(episodeId)).outcome).toBe('SCORED');
  });

  it('marks the last allowed step truncated and refuses the next', async () => {
    const { manager } = setup({ maxSteps: 2 });
    const { episodeId } = await manager.reset(TASK);
    expect((await manager.step(episodeId, 0, shell('true'))).truncated).toBe(false);
    expect((await manager.step(episodeId, 1, shell('true'))).truncated).toBe(true);
    await expectCode(() => manager.step(episodeId, 2, shell('true')), 'FAILED_PRECONDITION', /step budget/);
    // Reward from ready (no submit) is still allowed.
    expect((await manager.reward(episodeId)).outcome).toBe('SCORED');
  });

  it('answers truncated once the wall-time budget is spent, then refuses', async () => {
    const h = setup({ maxWallMs: 1_000 });
    const { episodeId } = await h.manager.reset(TASK);
    await h.manager.step(episodeId, 0, shell('true'));
    h.clock.now += 1_001;
    const late = await h.manager.step(episodeId, 1, shell('true'));
    expect(late.truncated).toBe(true);
    expect(late.observation.stderr).toMatch(/wall-time budget/);
    await expectCode(() => h.manager.step(episodeId, 2, shell('true')), 'FAILED_PRECONDITION', /wall-time budget/);
  });

  it('read_file honours offset and limit; write_file caps the size; a missing file is an observation', async () => {
    const { manager } = setup({ maxFileBytes: 10 });
    const { episodeId } = await manager.reset(TASK);
    const read = await manager.step(episodeId, 0, { kind: 'read_file', path: 'pkg/add.py', offset: 4, limit: 3 });
    expect(read.observation.stdout).toBe('add');
    expect(read.observation.truncated).toBe(true);
    const big = await manager.step(episodeId, 1, { kind: 'write_file', path: 'x.txt', content: 'x'.repeat(11) });
    expect(big.observation.exitCode).toBe(1);
    expect(big.observation.stderr).toMatch(/file limit/);
    const small = await manager.step(episodeId, 2, { kind: 'write_file', path: 'x.txt', content: 'hello' });
    expect(small.observation.exitCode).toBe(0);
    const back = await manager.step(episodeId, 3, { kind: 'read_file', path: '/workspace/x.txt', offset: 0, limit: 0 });
    expect(back.observation.stdout).toBe('hello');
    const missing = await manager.step(episodeId, 4, { kind: 'read_file', path: 'nope.txt', offset: 0, limit: 0 });
    expect(missing.observation.exitCode).toBe(1);
    expect(missing.observation.stderr).toMatch(/no such file/);
  });

  it('edit replaces text that occurs exactly once; zero or several matches are observations with exit_code 1', async () => {
    const { manager, provider } = setup();
    const { episodeId } = await manager.reset(TASK);
    const edit = (i: number, oldText: string, newText: string) => manager.step(episodeId, i, { kind: 'edit', path: 'pkg/add.py', oldText, newText });
    const none = await edit(0, 'no such text', 'x');
    expect(none.observation.exitCode).toBe(1);
    expect(none.observation.stderr).toMatch(/does not occur/);
    await manager.step(episodeId, 1, { kind: 'write_file', path: 'pkg/add.py', content: 'x = 1\nx = 1\n' });
    const twice = await edit(2, 'x = 1', 'y');
    expect(twice.observation.exitCode).toBe(1);
    expect(twice.observation.stderr).toMatch(/occurs 2 times/);
    const once = await edit(3, 'x = 1\nx', 'z = 2\nx');
    expect(once.observation.exitCode).toBe(0);
    expect(provider.sandboxes[0]!.files.get('/workspace/pkg/add.py')?.toString()).toBe('z = 2\nx = 1\n');
  });
});

describe('EpisodeManager.reward', () => {
  it('scores once: concurrent and later calls share the result; the sandbox is paused, read out and then destroyed', async () => {
    const { manager, provider, scorer } = setup();
    scorer.delayMs = 30;
    const { episodeId } = await manager.reset(TASK);
    await manager.step(episodeId, 0, { kind: 'write_file', path: 'pkg/add.py', content: 'def add(a, b):\n    return a + b\n' });
    await manager.step(episodeId, 1, submit);
    const [a, b] = await Promise.all([manager.reward(episodeId), manager.reward(episodeId)]);
    const c = await manager.reward(episodeId);
    expect(a).toEqual(b);
    expect(c).toEqual(a);
    expect(scorer.calls).toBe(1);
    expect(a).toMatchObject({ episodeId, reward: 1, outcome: 'SCORED', passed: 2, total: 2 });
    expect(provider.sandboxes[0]!.paused).toBe(true);
    expect(provider.sandboxes[0]!.destroyed).toBe(true);
    // Still answered after Close.
    await manager.close({ episodeId });
    expect(await manager.reward(episodeId)).toEqual(a);
  });

  it('refuses Reward of an episode closed before scoring', async () => {
    const { manager } = setup();
    const { episodeId } = await manager.reset(TASK);
    await manager.close({ episodeId });
    await expectCode(() => manager.reward(episodeId), 'FAILED_PRECONDITION', /closed before it was scored/);
  });

  it('turns a scorer crash into INFRA_ERROR', async () => {
    const { manager, scorer } = setup();
    scorer.score = async () => {
      throw new Error('judge exploded');
    };
    const { episodeId } = await manager.reset(TASK);
    const r = await manager.reward(episodeId);
    expect(r.outcome).toBe('INFRA_ERROR');
    expect(r.detail).toMatch(/judge exploded/);
  });
});

describe('groups', () => {
  it('ResetGroup is all or nothing: one failed start destroys the others', async () => {
    const { manager, provider } = setup();
    provider.failCreateAt = 3;
    await expect(manager.resetGroup(TASK, 5)).rejects.toThrow(/engine said no/);
    expect(provider.live).toEqual([]);
    expect(manager.activeCount).toBe(0);
  });

  it('RewardGroup computes advantages with the infra-error episode masked out', async () => {
    const { manager } = setup();
    const group = await manager.resetGroup(TASK, 3);
    const [solved, failed, died] = group.episodes.map((e) => e.episodeId) as [string, string, string];
    await manager.step(solved, 0, { kind: 'write_file', path: 'pkg/add.py', content: 'return a + b' });
    await manager.step(solved, 1, submit);
    await manager.step(failed, 0, submit);
    await expectCode(() => manager.step(died, 0, shell('die')), 'ABORTED');
    const result = await manager.rewardGroup(group.groupId);
    expect(result.rewards.map((r) => r.outcome)).toEqual(['SCORED', 'SCORED', 'INFRA_ERROR']);
    expect(result.mask).toEqual([true, true, false]);
    // rewards 1 and 0: mean 0.5, std 0.5 → ±1 (less epsilon)
    expect(result.advantages[0]).toBeCloseTo(1, 5);
    expect(result.advantages[1]).toBeCloseTo(-1, 5);
    expect(result.advantages[2]).toBe(0);
  });

  it('Close(group) closes every episode once and is idempotent', async () => {
    const { manager, provider } = setup();
    const group = await manager.resetGroup(TASK, 4);
    expect(await manager.close({ groupId: group.groupId })).toBe(4);
    expect(await manager.close({ groupId: group.groupId })).toBe(0);
    expect(provider.live).toEqual([]);
    await expectCode(() => manager.close({ groupId: 'grp-nope' }), 'NOT_FOUND');
  });
});

describe('lifecycle', () => {
  it('closes idle episodes on sweep and destroys their sandboxes', async () => {
    const h = setup({ idleExpiryMs: 60_000 });
    const idle = await h.manager.reset(TASK);
    const busy = await h.manager.reset(TASK);
    h.clock.now += 30_000;
    await h.manager.step(busy.episodeId, 0, shell('true'));
    h.clock.now += 30_000;
    expect(await h.manager.sweep()).toBe(1);
    expect(h.provider.sandboxes[0]!.destroyed).toBe(true);
    expect(h.provider.sandboxes[1]!.destroyed).toBe(false);
    await expectCode(() => h.manager.step(idle.episodeId, 0, shell('true')), 'FAILED_PRECONDITION', /closed/);
  });

  it('expires idle episodes on its own timer once started', async () => {
    const provider = new FakeProvider();
    const manager = createEpisodeManager({
      provider,
      catalog: makeCatalog(),
      scorer: new FakeScorer(),
      logger: createSilentLogger(),
      limits: resolveLimits({ idleExpiryMs: 40 }),
      readWorkspace: async () => WORKSPACE,
    });
    harnesses.push({ manager, provider, scorer: new FakeScorer(), clock: { now: 0 } });
    await manager.start();
    await manager.reset(TASK);
    await expect.poll(() => provider.live.length, { timeout: 2_000 }).toBe(0);
  });

  it('shutdown refuses new resets, lets a step in flight finish, then destroys every sandbox', async () => {
    const { manager, provider } = setup();
    const { episodeId } = await manager.reset(TASK);
    const inFlight = manager.step(episodeId, 0, shell('sleep 0.1'));
    const done = manager.shutdown({ graceMs: 2_000 });
    await expectCode(() => manager.reset(TASK), 'UNAVAILABLE', /shutting down/);
    expect((await inFlight).observation.exitCode).toBe(0);
    await done;
    expect(provider.live).toEqual([]);
  });

  it('shutdown aborts calls still running when the grace period ends', async () => {
    const { manager, provider } = setup();
    const { episodeId } = await manager.reset(TASK);
    const inFlight = manager.step(episodeId, 0, shell('sleep 30')).catch((e: unknown) => e);
    const started = Date.now();
    await manager.shutdown({ graceMs: 100 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await inFlight).toBeInstanceOf(CodeMidasError);
    expect(provider.live).toEqual([]);
  });
});
