import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { startServerProcess, type ServerProcess } from '../../src/bench/server-process.js';

/**
 * The Python client (clients/python) against the real server on the sample suite: stubs generated
 * from the proto, `codemidas serve` started as a child process, the client's pytest files run with
 * Debian's /usr/bin/python3 (the interpreter that has python3-grpcio).
 */
const root = projectRoot();
const PYTHON = process.env.CODEMIDAS_PYTHON ?? '/usr/bin/python3';

function runPytest(files: string[], env: NodeJS.ProcessEnv): { status: number | null; output: string; passed: number } {
  const result = spawnSync(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', ...files], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 600_000,
  });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  const passed = Number(/(\d+) passed/.exec(output)?.[1] ?? 0);
  return { status: result.status, output, passed };
}

function generateStubs(): void {
  const gen = spawnSync('bash', [join(root, 'clients/python/generate.sh')], { cwd: root, encoding: 'utf8' });
  expect(gen.status, `generate.sh failed:\n${gen.stderr}`).toBe(0);
}

describe('python client without a server', () => {
  it('generates its stubs and passes its unit tests (sync facade, aio client, trainer examples) against an in-process fake server', () => {
    generateStubs();
    const run = runPytest(
      [
        'clients/python/tests/test_client_unit.py',
        'clients/python/tests/test_client_aio.py',
        'clients/python/tests/test_examples.py',
      ],
      {},
    );
    expect(run.status, run.output).toBe(0);
    expect(run.passed, run.output).toBe(36);
    expect(run.output).not.toMatch(/\d+ (failed|error)/);
  });
});

describe('python client against the real server', () => {
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    generateStubs();
    server = await startServerProcess({ environmentsDir: join(root, 'environments') });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('drives real episodes: reference 1.0, untouched 0.0, an aio group of 4 scored [1,1,0,0], each trainer example 1.0', () => {
    if (!server) throw new Error('server did not start');
    const run = runPytest(['clients/python/tests/test_client_episode.py'], {
      CODEMIDAS_ADDRESS: server.address,
      CODEMIDAS_ENVIRONMENTS: join(root, 'environments'),
    });
    expect(run.status, `${run.output}\n--- server output ---\n${server.outputTail()}`).toBe(0);
    expect(run.passed, run.output).toBe(6);
    expect(run.output).not.toMatch(/\d+ skipped/);
  });
});
