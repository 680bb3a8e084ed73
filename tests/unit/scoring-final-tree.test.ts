import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../src/sandbox/types.js';
import { buildFinalTree, HIDDEN_DIR_IN_SANDBOX, parseJudgeOutput, scoringTree } from '../../src/scoring/sandbox-scorer.js';

const file = (path: string, content = path): FileEntry => ({ path, type: 'file', mode: 0o644, content: Buffer.from(content) });
const dir = (path: string): FileEntry => ({ path, type: 'directory', mode: 0o755 });

const contentOf = (tree: FileEntry[], path: string): string | undefined => tree.find((e) => e.path === path)?.content?.toString();

describe('buildFinalTree', () => {
  const original = [dir('pkg'), file('pkg/mod.py', 'original'), file('pkg/util.py', 'util'), dir('tests'), file('tests/test_a.py', 'test'), file('pyproject.toml', 'orig-config')];

  it("lays the agent's files over the original and adds new ones", () => {
    const agent = [file('pkg/mod.py', 'solved'), file('pkg/util.py', 'util'), file('pkg/new.py', 'new'), file('tests/test_a.py', 'test'), file('pyproject.toml', 'orig-config')];
    const tree = buildFinalTree(original, agent.filter((e) => e.path !== 'pyproject.toml' && !e.path.startsWith('tests')), agent, ['tests']);
    expect(contentOf(tree, 'pkg/mod.py')).toBe('solved');
    expect(contentOf(tree, 'pkg/new.py')).toBe('new');
    expect(contentOf(tree, 'pyproject.toml')).toBe('orig-config');
    expect(tree.every((e) => e.uid === 1000 && e.gid === 1000)).toBe(true);
  });

  it('omits originals the agent deleted but always restores protected ones', () => {
    const agent = [file('pkg/mod.py', 'solved')];
    const tree = buildFinalTree(original, agent, agent, ['tests']);
    expect(contentOf(tree, 'pkg/util.py')).toBeUndefined();
    expect(contentOf(tree, 'tests/test_a.py')).toBe('test');
  });

  it("restores the original when the agent's version was dropped", () => {
    const readout = [file('pkg/mod.py', 'x'), file('pyproject.toml', '[tool.pytest.ini_options]\naddopts="-p evil"')];
    const tree = buildFinalTree(original, [file('pkg/mod.py', 'x')], readout, []);
    expect(contentOf(tree, 'pyproject.toml')).toBe('orig-config');
  });

  it('lists every parent folder and never puts a file where a protected folder must be', () => {
    const agent = [file('tests', 'I am a file now'), file('deep/a/b.py')];
    const tree = buildFinalTree(original, agent, agent, ['tests']);
    expect(tree.find((e) => e.path === 'tests')?.type).toBe('directory');
    expect(contentOf(tree, 'tests/test_a.py')).toBe('test');
    expect(tree.filter((e) => e.type === 'directory').map((e) => e.path)).toEqual(expect.arrayContaining(['deep', 'deep/a', 'tests']));
  });
});

describe('parseJudgeOutput', () => {
  const good = { tests: [{ name: 'case:a', status: 'passed', message: '' }], tampered: false, budgetExhausted: false, detail: '1/1 passed' };

  it('reads the line with the run nonce and ignores look-alikes', () => {
    const forged = `CODEMIDAS-JUDGE other ${JSON.stringify({ ...good, tests: [] })}`;
    const out = parseJudgeOutput(`noise\n${forged}\nCODEMIDAS-JUDGE n1 ${JSON.stringify(good)}\n`, 'n1', 0);
    expect(out.tests).toEqual(good.tests);
  });

  it('refuses a missing line, bad JSON and malformed outcomes', () => {
    expect(() => parseJudgeOutput('', 'n1', 1, 'Traceback: boom')).toThrow(/no result from the judge \(exit code 1\): Traceback: boom/);
    expect(() => parseJudgeOutput('CODEMIDAS-JUDGE n1 {nope', 'n1', 0)).toThrow(/not JSON/);
    const bad = { ...good, tests: [{ name: 'x', status: 'great' }] };
    expect(() => parseJudgeOutput(`CODEMIDAS-JUDGE n1 ${JSON.stringify(bad)}`, 'n1', 0)).toThrow(/malformed/);
  });
});

describe('scoringTree', () => {
  const owned = (e: FileEntry): FileEntry => ({ ...e, uid: 1000, gid: 1000 });
  const secret = (e: FileEntry): FileEntry => ({ ...e, uid: 0, gid: 0, mode: e.type === 'directory' ? 0o700 : 0o600 });
  const byPath = (tree: FileEntry[]): Map<string, FileEntry> => new Map(tree.map((e) => [e.path, e]));

  it('puts the workspace under the workdir and the hidden tests under their root-only folder, in one tree', () => {
    const tree = byPath(scoringTree('/workspace', [owned(file('pkg/mod.py'))], [secret(file('cases.json'))]));
    expect(tree.get('workspace/pkg/mod.py')).toMatchObject({ type: 'file', uid: 1000 });
    expect(tree.get('workspace')).toMatchObject({ type: 'directory', mode: 0o755, uid: 1000, gid: 1000 });
    const hidden = HIDDEN_DIR_IN_SANDBOX.slice(1);
    expect(tree.get(hidden)).toMatchObject({ type: 'directory', mode: 0o700, uid: 0, gid: 0 });
    expect(tree.get(`${hidden}/cases.json`)).toMatchObject({ mode: 0o600, uid: 0 });
  });

  it("lists every folder above the workdir and the hidden folder as root's 0755, before what they hold", () => {
    const list = scoringTree('/srv/agent/ws', [owned(file('a.py'))], [secret(file('cases.json'))]);
    const hidden = HIDDEN_DIR_IN_SANDBOX.slice(1).split('/');
    const parents = ['srv', 'srv/agent', ...hidden.slice(0, -1).map((_, i) => hidden.slice(0, i + 1).join('/'))];
    const tree = byPath(list);
    for (const p of parents) expect(tree.get(p), p).toMatchObject({ type: 'directory', mode: 0o755, uid: 0, gid: 0 });
    const index = (p: string): number => list.findIndex((e) => e.path === p);
    expect(index('srv')).toBeLessThan(index('srv/agent'));
    expect(index('srv/agent/ws')).toBeLessThan(index('srv/agent/ws/a.py'));
  });

  it('refuses a workdir that holds or sits inside the hidden folder', () => {
    expect(() => scoringTree('/', [], [])).toThrow(/cannot hold/);
    expect(() => scoringTree('/var/lib', [], [])).toThrow(/cannot hold/);
    expect(() => scoringTree(`${HIDDEN_DIR_IN_SANDBOX}/ws`, [], [])).toThrow(/cannot hold/);
  });
});
