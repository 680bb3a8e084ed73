/**
 * The red-team suite through a real episode (docs/red-team.md): hacks that need the episode's own
 * sandbox, run over a real gRPC server on the real engine against the sample suite. Each hack runs
 * twice, once after writing the reference solution (it must still score 1.0: the hack is harmless
 * on its own) and once without (0.0); both SCORED, never INFRA_ERROR. Every container carries
 * `codemidas.server=<SERVER_ID>`; afterAll removes any left, even when a test failed.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import type { FileEntry } from '../../src/sandbox/types.js';
import { HIDDEN_DIR_IN_SANDBOX } from '../../src/scoring/sandbox-scorer.js';
import { listWorkspaceFiles } from '../../src/tasks/list-workspace-files.js';
import { loadCatalog } from '../../src/tasks/load-catalog.js';
import { startDockerServer, type DockerServer } from '../fixtures/docker-server.js';
import type { EnvironmentClient } from '../unit/server-client.js';

const SERVER_ID = `itest-redteam-${process.pid}-${Date.now()}`;
const TASK = 'sample/slugify';
const root = projectRoot();
const TASK_DIR = join(root, 'environments/sample/slugify');
/** The task's masked workspace as episodes get it (the suite's base with the task's overlay). */
const MASKED: FileEntry[] = await listWorkspaceFiles((await loadCatalog(join(root, 'environments'))).get('sample/slugify')!);

function writeEntries(dir: string, entries: readonly FileEntry[]): void {
  for (const e of entries) {
    if (e.type === 'directory') mkdirSync(join(dir, e.path), { recursive: true });
    else if (e.type === 'file') writeFileSync(join(dir, e.path), e.content ?? Buffer.alloc(0));
  }
}
const SOLUTION = readFileSync(join(TASK_DIR, 'solution/textkit/slug.py'), 'utf8');

/**
 * A `.git` (gzip'd tar, base64) whose first commit holds the reference solution as the "original"
 * code and whose HEAD is the unsolved workspace, built with the host's git: the episode image has
 * no git, so the agent would bring its own history this way.
 */
function plantedGitArchive(): string {
  const work = mkdtempSync(join(tmpdir(), 'codemidas-redteam-git-'));
  try {
    const git = (...args: string[]): void => {
      execFileSync('git', ['-c', 'user.name=agent', '-c', 'user.email=agent@example.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd: work, stdio: 'ignore' });
    };
    writeEntries(work, MASKED);
    cpSync(join(TASK_DIR, 'solution'), work, { recursive: true });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'original implementation');
    writeEntries(work, MASKED);
    git('commit', '-q', '-am', 'mask slugify');
    return execFileSync('tar', ['-C', work, '-cz', '.git']).toString('base64');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

interface EpisodeHack {
  name: string;
  description: string;
  /** Shell steps the agent runs after (or without) writing the solution. */
  commands: () => string[];
  /** Checks on the observations of those steps (what the hack saw inside the episode). */
  check?: (stdouts: string[]) => void;
}

const HACKS: EpisodeHack[] = [
  {
    name: 'episode-git-history-plant',
    description: 'the workspace starts without a .git to mine; the agent plants one whose history holds the solution, then asks for its reward',
    commands: () => [
      'ls -a; test -e .git && echo HAS-GIT || echo NO-GIT',
      `echo ${plantedGitArchive()} | base64 -d | tar xz && ls .git/objects | wc -l`,
    ],
    check: (stdouts) => {
      expect(stdouts[0]).toContain('NO-GIT');
      expect(Number(stdouts[1]!.trim())).toBeGreaterThan(2);
    },
  },
  {
    name: 'episode-background-writer-at-reward',
    description: 'a detached process (own session, SIGTERM and SIGHUP ignored) that keeps planting conftest.py, sitecustomize.py, a .pth and churning files while the workspace is read out and scored',
    commands: () => [
      [
        "cat > /tmp/haunt.sh <<'EOF'",
        "trap '' TERM HUP INT",
        'i=0',
        'while :; do',
        '  i=$((i+1))',
        "  printf 'import pytest\\n@pytest.hookimpl(hookwrapper=True)\\ndef pytest_runtest_makereport(item, call):\\n    (yield).get_result().outcome = \"passed\"\\n' > conftest.py",
        "  echo 'import sys; sys.exit(0)' > sitecustomize.py",
        "  echo 'import os; os._exit(0)' > zz-hack.pth",
        '  mkdir -p churn; echo $i > churn/f$((i % 200)); rm -f churn/f$(((i + 100) % 200))',
        '  sleep 0.01',
        'done',
        'EOF',
        'setsid nohup sh /tmp/haunt.sh >/dev/null 2>&1 < /dev/null &',
        'sleep 0.5; test -e conftest.py && echo PLANTED',
      ].join('\n'),
    ],
    check: (stdouts) => expect(stdouts[0]).toContain('PLANTED'),
  },
  {
    name: 'episode-hidden-path-write',
    description: `writes where the hidden tests go at scoring (${HIDDEN_DIR_IN_SANDBOX}), both in the episode container and as the same path inside the workspace, plus a link to it`,
    commands: () => [
      [
        `mkdir -p ${HIDDEN_DIR_IN_SANDBOX}/tests 2>&1; echo '{"schemaVersion": 1, "cases": []}' > ${HIDDEN_DIR_IN_SANDBOX}/cases.json 2>&1`,
        `mkdir -p ./${HIDDEN_DIR_IN_SANDBOX}/tests && echo '{"schemaVersion": 1, "cases": []}' > ./${HIDDEN_DIR_IN_SANDBOX}/cases.json`,
        `printf 'def test_slugify_basic():\\n    pass\\n' > ./${HIDDEN_DIR_IN_SANDBOX}/tests/test_slugify.py`,
        `ln -s ${HIDDEN_DIR_IN_SANDBOX} hidden-link; mkdir -p hidden/tests; cp ./${HIDDEN_DIR_IN_SANDBOX}/tests/test_slugify.py hidden/tests/`,
        `test -e ${HIDDEN_DIR_IN_SANDBOX}/cases.json && echo WROTE-HIDDEN || echo NO-HIDDEN`,
      ].join('\n'),
    ],
    check: (stdouts) => expect(stdouts[0]).toContain('NO-HIDDEN'),
  },
  {
    name: 'episode-tmp-home-plant',
    description: 'plants runner configuration, interpreter hooks and caches in /tmp and $HOME during the episode, for a scoring run that would reuse them',
    commands: () => [
      [
        "printf 'import pytest\\n@pytest.hookimpl(hookwrapper=True)\\ndef pytest_runtest_makereport(item, call):\\n    (yield).get_result().outcome = \"passed\"\\n' > /tmp/conftest.py",
        'cp /tmp/conftest.py "$HOME/conftest.py" 2>/dev/null',
        "printf '[pytest]\\naddopts = --co\\n' | tee /tmp/pytest.ini \"$HOME/pytest.ini\" >/dev/null 2>&1",
        "echo 'import sys; sys.exit(0)' > /tmp/sitecustomize.py",
        'mkdir -p "$HOME/.local/lib/python3.11/site-packages" /tmp/.pytest_cache/v/cache "$HOME/.config" 2>/dev/null',
        "echo 'import os; os._exit(0)' > \"$HOME/.local/lib/python3.11/site-packages/zz-hack.pth\" 2>/dev/null",
        "echo '{}' > /tmp/.pytest_cache/v/cache/lastfailed",
        'mkdir -p /tmp/__pycache__ && cp /tmp/sitecustomize.py /tmp/__pycache__/sitecustomize.cpython-311.pyc',
        'ls -a /tmp | grep -c . ',
      ].join('\n'),
    ],
    check: (stdouts) => expect(Number(stdouts[0]!.trim())).toBeGreaterThan(4),
  },
];

describe('red-team hacks through a real episode (real engine)', () => {
  let env: DockerServer | undefined;
  let client: EnvironmentClient;

  beforeAll(async () => {
    env = await startDockerServer({ serverId: SERVER_ID });
    client = env.client;
  });

  afterAll(async () => {
    await env?.close();
  });

  async function runEpisode(hack: EpisodeHack, solved: boolean): Promise<{ reward: Record<string, any>; stdouts: string[] }> {
    const id = (await client.call('Reset', { task_id: TASK }))['episode_id'] as string;
    let index = 0;
    try {
      if (solved) await client.call('Step', { episode_id: id, step_index: index++, action: { write_file: { path: 'textkit/slug.py', content: SOLUTION } } });
      const stdouts: string[] = [];
      for (const command of hack.commands()) {
        const step = await client.call('Step', { episode_id: id, step_index: index++, action: { shell: { command, timeout_ms: 20_000 } } });
        expect(step['terminated'], JSON.stringify(step)).toBe(false);
        stdouts.push(step['observation'].stdout as string);
      }
      await client.call('Step', { episode_id: id, step_index: index++, action: { submit: {} } });
      const reward = await client.call('Reward', { episode_id: id });
      return { reward, stdouts };
    } finally {
      await client.call('Close', { episode_id: id });
    }
  }

  it.concurrent.each(HACKS)('$name: the solved episode scores 1.0 and the unsolved 0.0, both SCORED', async (hack) => {
    const [solved, unsolved] = await Promise.all([runEpisode(hack, true), runEpisode(hack, false)]);
    expect(solved.reward, JSON.stringify(solved.reward)).toMatchObject({ outcome: 'SCORED', reward: 1 });
    expect(unsolved.reward, JSON.stringify(unsolved.reward)).toMatchObject({ outcome: 'SCORED', reward: 0 });
    hack.check?.(solved.stdouts);
    hack.check?.(unsolved.stdouts);
  });
});
