/**
 * Who a failed scoring run is charged to, against the real engine (DESIGN.md, Scoring 6):
 * - what the agent's code does inside the judge (a fork bomb, `kill -1`, closing stdout, filling
 *   memory or /tmp, printing megabytes, hanging) ends as failed tests, SCORED (or TIMEOUT for a hang
 *   past the task's limit), never as INFRA_ERROR, and costs nothing where it is harmless;
 * - a scoring sandbox killed from outside mid-judge is tried once more in a new sandbox, and only
 *   when that one dies too is the Reward an INFRA_ERROR.
 */
import Dockerode from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureImages } from '../../src/images/image-builder.js';
import { createDockerImageResolver } from '../../src/images/docker-image-resolver.js';
import { createSilentLogger } from '../../src/logging.js';
import { createDockerSandboxProvider } from '../../src/sandbox/docker/docker-sandbox-provider.js';
import type { FileEntry, SandboxProvider } from '../../src/sandbox/types.js';
import { createPythonScorer } from '../../src/languages/python/python-scorer.js';
import type { ScoreResult } from '../../src/scoring/types.js';
import type { LoadedTask } from '../../src/tasks/types.js';
import { loadFixtureTask, maskedReadout, overlay, solvedReadout } from '../fixtures/scoring-fixtures.js';

const logger = createSilentLogger();
const docker = new Dockerode();
const serverId = `scoring-faults-${process.pid}`;
const task = loadFixtureTask();
const MODULE = 'rangekit/merge.py';
let provider: SandboxProvider;

beforeAll(async () => {
  const { tags } = await ensureImages({ docker, logger, languages: ['python'] });
  provider = createDockerSandboxProvider({ docker, logger, serverId, images: createDockerImageResolver({ docker, logger, tags }) });
  await provider.ping();
});

afterAll(async () => {
  await provider?.close();
});

/** The read-out with `prelude` run at import time of the module under test, before its own code. */
async function withPrelude(base: Promise<FileEntry[]>, prelude: string): Promise<FileEntry[]> {
  const entries = await base;
  const source = entries.find((e) => e.path === MODULE)?.content?.toString() ?? '';
  return overlay(entries, [{ path: MODULE, type: 'file', mode: 0o644, content: Buffer.from(`${prelude.trim()}\n\n${source}`) }]);
}

function score(workspace: FileEntry[], scoredTask: LoadedTask = task, limits: Parameters<typeof createPythonScorer>[0]['limits'] = {}): Promise<ScoreResult> {
  return createPythonScorer({ provider, logger, limits }).score({ task: scoredTask, workspace });
}

/**
 * A scoring sandbox whose pid limit (64) is below the agent user's process limit (256), so a fork
 * bomb fills the container's whole process table and the judge cannot fork either.
 */
const FEW_PIDS = { resources: { memoryBytes: 1024 * 1024 * 1024, cpus: 1, pids: 64 } };

async function scoringContainers(): Promise<Dockerode.ContainerInfo[]> {
  return docker.listContainers({ filters: { label: ['codemidas.purpose=scoring', `codemidas.server=${serverId}`], status: ['running'] } });
}

const REMOVAL_POLL = { timeout: 10_000, interval: 100 };

/**
 * A fork bomb started at import: a child that leaves the subject's process group (so killing that
 * group misses it), then every process forks again whenever a slot is free, so a slot freed by a
 * kill is taken again at once. The import itself goes on.
 */
const FORK_BOMB = `
import os as _os, time as _time
if _os.fork() == 0:
    _os.setsid()
    while True:
        try:
            _os.fork()
        except OSError:
            _time.sleep(0.01)
`;

/** SIGKILL to every process the agent user may signal (itself included), at import. */
const KILL_ALL = `
import os as _os, signal as _signal
_os.kill(-1, _signal.SIGKILL)
`;

const CLOSE_STDIO = `
import os as _os
for _fd in (0, 1, 2):
    _os.close(_fd)
`;

const PRINT_MEGABYTES = `
import sys as _sys
for _ in range(20):
    _sys.stdout.write("x" * (1 << 20))
    _sys.stderr.write("y" * (1 << 20))
`;

/** Grabs memory until the container's limit: the kernel kills this process, not the judge. */
const FILL_MEMORY = `
_hoard = []
while True:
    _hoard.append(bytearray(64 << 20))
`;

/** Fills the /tmp tmpfs (the judge's scratch lives there too), then goes on. */
const FILL_TMP = `
import os as _os
try:
    with open("/tmp/fill-%d" % _os.getpid(), "wb") as _f:
        while True:
            _f.write(b"z" * (1 << 20))
except OSError:
    pass
`;

const HANG = `
while True:
    pass
`;

describe("the agent's code cannot turn scoring into an INFRA_ERROR", () => {
  it.each([
    ['a fork bomb at import', FORK_BOMB],
    ['kill(-1, SIGKILL) at import', KILL_ALL],
    ['closing stdin, stdout and stderr at import', CLOSE_STDIO],
    ['filling memory at import', FILL_MEMORY],
    ['filling /tmp at import', FILL_TMP],
  ])('%s on the unsolved task scores 0, SCORED', async (_name, prelude) => {
    const result = await score(await withPrelude(maskedReadout(task), prelude));
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'SCORED', reward: 0, passed: 0, total: 10 });
  });

  it.each([
    ['a fork bomb at import', FORK_BOMB],
    ['printing 40 MB at import', PRINT_MEGABYTES],
  ])('%s added to the solved task still scores 1.0: it harms nothing the tests check', async (_name, prelude) => {
    const result = await score(await withPrelude(solvedReadout(task), prelude));
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'SCORED', reward: 1, passed: 10, total: 10 });
  });

  it.each([
    ['the unsolved', maskedReadout, 0, 0],
    ['the solved', solvedReadout, 1, 10],
  ] as const)('a fork bomb that fills the scoring container\'s process table scores %s task as it stands, SCORED', async (_name, readout, reward, passed) => {
    const result = await score(await withPrelude(readout(task), FORK_BOMB), task, FEW_PIDS);
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'SCORED', reward, passed, total: 10 });
  });

  it('a hang at import is charged to the agent: failed cases or a TIMEOUT, never INFRA_ERROR', async () => {
    const quick: LoadedTask = { ...task, file: { ...task.file, tests: { ...task.file.tests, timeoutMs: 8000, caseTimeoutMs: 800 } } };
    const result = await score(await withPrelude(solvedReadout(quick), HANG), quick);
    expect(['SCORED', 'TIMEOUT'], JSON.stringify(result)).toContain(result.outcome);
    expect(result.reward).toBe(0);
    await expect.poll(async () => (await scoringContainers()).length, REMOVAL_POLL).toBe(0);
  });
});

describe('a scoring sandbox killed from outside mid-judge', () => {
  /** The solved task, its module sleeping at import so the judge is busy for seconds. */
  const SLOW_IMPORT = 'import time as _time\n_time.sleep(1.5)';

  /**
   * Kills the next `count` scoring containers once the judge runs its subject in them (a process of
   * subject.py is seen), so the kill lands mid-judge. Resolves with the ids killed.
   */
  function killMidJudge(count: number, signal: AbortSignal): Promise<string[]> {
    const killed: string[] = [];
    return (async () => {
      while (killed.length < count && !signal.aborted) {
        for (const info of await scoringContainers()) {
          if (killed.includes(info.Id)) continue;
          const top = await docker.getContainer(info.Id).top({ ps_args: '-eo pid,args' }).catch(() => ({ Processes: [] as string[][] }));
          if (!top.Processes?.some((p) => p.join(' ').includes('subject.py'))) continue;
          await docker.getContainer(info.Id).kill().catch(() => undefined);
          killed.push(info.Id);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      return killed;
    })();
  }

  it('is scored in a new sandbox: SCORED 1.0 on the solved task, the retry named in the detail', async () => {
    const stop = new AbortController();
    const killer = killMidJudge(1, stop.signal);
    const result = await score(await withPrelude(solvedReadout(task), SLOW_IMPORT));
    stop.abort();
    expect(await killer).toHaveLength(1);
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'SCORED', reward: 1, passed: 10, total: 10 });
    expect(result.detail).toMatch(/scored in a new sandbox after: scoring sandbox failed/);
    await expect.poll(async () => (await scoringContainers()).length, REMOVAL_POLL).toBe(0);
  });

  it('is an INFRA_ERROR when the new sandbox is killed too', async () => {
    const stop = new AbortController();
    const killer = killMidJudge(2, stop.signal);
    const result = await score(await withPrelude(solvedReadout(task), SLOW_IMPORT));
    stop.abort();
    expect(await killer).toHaveLength(2);
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'INFRA_ERROR', reward: 0 });
    expect(result.detail).toMatch(/scoring sandbox failed: .*; then scoring sandbox failed: .*\(2 runs, each in a new sandbox\)/);
    await expect.poll(async () => (await scoringContainers()).length, REMOVAL_POLL).toBe(0);
  });
});
