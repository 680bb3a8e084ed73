/**
 * The judge's subject runs each case in a fork of its own post-import state (subject.answer_in_fork),
 * as the recorder runs every case in a fresh fork: what one case leaves behind (a class-level cache,
 * a module's registry) is never seen by the next, so a case answers as it was recorded whatever ran
 * before it. A fork that ends without answering gives an error answer naming how it ended.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

const JUDGE_DIR = join(projectRoot(), 'src', 'languages', 'python', 'judge');
const workspace = mkdtempSync(join(tmpdir(), 'codemidas-subject-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

writeFileSync(
  join(workspace, 'counter.py'),
  ['import os', '', '_calls = []', '', '', 'def bump(x):', '    if x == "exit":', '        os._exit(5)', '    _calls.append(x)', '    return len(_calls)', ''].join('\n'),
);

function run(script: string): any {
  const full = [
    'import importlib.util, json, sys',
    `sys.path.append(${JSON.stringify(workspace)})`,
    `spec = importlib.util.spec_from_file_location("subject", ${JSON.stringify(join(JUDGE_DIR, 'subject.py'))})`,
    'subject = importlib.util.module_from_spec(spec); spec.loader.exec_module(subject)',
    'case = lambda x: {"module": "counter", "target": "bump", "init": None, "args": [x], "kwargs": {}}',
    script,
  ].join('\n');
  const out = spawnSync('/usr/bin/python3', ['-I', '-c', full], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(out.stderr);
  return JSON.parse(out.stdout);
}

describe('the subject: one fork per case', () => {
  it('answers a case that changes module state the same each time, where running in one process would not', () => {
    const out = run([
      'one = {"t": "int", "v": "1"}',
      'forked = [subject.answer_in_fork(case(one))["value"]["v"] for _ in range(3)]',
      'shared = [subject.run_case(case(one))["value"]["v"] for _ in range(3)]',
      'print(json.dumps({"forked": forked, "shared": shared}))',
    ].join('\n'));
    expect(out.forked).toEqual(['1', '1', '1']);
    expect(out.shared).toEqual(['1', '2', '3']);
  });

  it('names how a fork ended without answering, and answers the next case', () => {
    const out = run([
      'gone = subject.answer_in_fork(case({"t": "str", "v": "exit"}))',
      'after = subject.answer_in_fork(case({"t": "int", "v": "1"}))',
      'print(json.dumps({"gone": gone, "after": after["value"]["v"]}))',
    ].join('\n'));
    expect(out.gone).toEqual({ kind: 'error', message: "the case's process ended without answering (exit code 5)" });
    expect(out.after).toBe('1');
  });
});
