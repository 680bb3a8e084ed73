import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';
import { startServerProcess, type ServerProcess } from '../../src/bench/server-process.js';

/**
 * scripts/grpo-demo.py against the real server on the sample suite: every task gets a group of 8,
 * 4 oracle episodes must score 1.0 and 4 null episodes 0.0, with equal and opposite advantages.
 * (scripts/demo.sh runs the same after its set-up.)
 */
const root = projectRoot();
const PYTHON = process.env.CODEMIDAS_PYTHON ?? '/usr/bin/python3';

describe('GRPO demo', () => {
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    const gen = spawnSync('bash', [join(root, 'clients/python/generate.sh')], { cwd: root, encoding: 'utf8' });
    expect(gen.status, `generate.sh failed:\n${gen.stderr}`).toBe(0);
    server = await startServerProcess({ environmentsDir: join(root, 'environments') });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('scores every oracle episode 1.0 and every null episode 0.0 on every sample task', () => {
    if (!server) throw new Error('server did not start');
    const suite = JSON.parse(readFileSync(join(root, 'environments/sample/suite.json'), 'utf8')) as { tasks: string[] };
    const run = spawnSync(
      PYTHON,
      ['scripts/grpo-demo.py', '--address', server.address, '--suite', 'sample', '--environments', 'environments'],
      { cwd: root, encoding: 'utf8', timeout: 900_000 },
    );
    const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
    expect(run.status, `${output}\n--- server output ---\n${server.outputTail()}`).toBe(0);
    expect(output).toContain(`GRPO demo: PASS: ${suite.tasks.length} tasks, ${suite.tasks.length * 8} episodes`);
    for (const name of suite.tasks) expect(output).toContain(`sample/${name}: scored`);
  }, 900_000);
});
