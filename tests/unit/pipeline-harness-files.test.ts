/**
 * Functions that write to or read from a file-like parameter (`dump(obj, fp)`, `load(fp)`), recorded
 * by record.py and mutate.py with Debian's python3 on the fixture recfix/writers.py: the parameter
 * gets in-memory files (`io.StringIO(...)`, `io.BytesIO(...)`), the codec encodes one by what it
 * holds, so what a call wrote is judged in its arguments afterwards; a prompt shows it as the call
 * that makes such a file.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { taggedToPython } from '../../src/languages/python/python-literal.js';
import { root, runHarness, target } from './pipeline-harness-helpers.js';

const TARGETS = [target('write_pairs', 'recfix.writers'), target('read_pairs', 'recfix.writers')];
let recorded: Map<string, any>;
let mutated: Map<string, any>;

beforeAll(() => {
  const result = runHarness('record.py', { runRepoTests: false, targets: TARGETS });
  recorded = new Map(result.targets.map((t: any) => [t.unitId, t]));
  const withCases = TARGETS.map((t: any) => ({ ...t, cases: recorded.get(t.unitId).cases }));
  mutated = new Map(runHarness('mutate.py', { targets: withCases }).targets.map((t: any) => [t.unitId, t]));
}, 300_000);

const fileArg = (c: any, k: number): string | undefined => (c.args[k]?.t === 'repr' ? c.args[k].v : undefined);

describe('record.py: file-like parameters', () => {
  it('writes into empty in-memory files and judges what they hold afterwards', () => {
    // the recorded cases, and those the mutant-guided search found (a list of pairs to write)
    const all = [...recorded.get('recfix.writers:write_pairs').cases, ...mutated.get('recfix.writers:write_pairs').newCases];
    const cases = all.filter((c: any) => 'returns' in c.expect);
    const written = cases.filter((c: any) => /^io\.(StringIO|BytesIO)\(/.test(fileArg(c, 1) ?? ''));
    expect(written.length).toBeGreaterThan(0);
    const held = written.map((c: any) => c.argsAfter?.[1]?.v).filter((o: any) => o?.type === '_io.StringIO');
    expect(held.some((o: any) => o.state.v[0][1].v.includes('='))).toBe(true);
    expect(mutated.get('recfix.writers:write_pairs').mutation.score).toBeGreaterThanOrEqual(0.8);
  });

  it('reads from in-memory files holding texts', () => {
    const cases = recorded.get('recfix.writers:read_pairs').cases.filter((c: any) => 'returns' in c.expect);
    expect(cases.some((c: any) => (fileArg(c, 0) ?? '').startsWith('io.StringIO(') && c.expect.returns.v.length > 0)).toBe(true);
    expect(mutated.get('recfix.writers:read_pairs').mutation.score).toBeGreaterThanOrEqual(0.8);
  });
});

describe('codec: in-memory files', () => {
  it('encodes one by what it holds, refuses a closed one, and a prompt shows it as the call that makes it', () => {
    const script = `
import sys; sys.path.insert(0, ${JSON.stringify(join(root, 'src', 'languages', 'python', 'judge'))})
import codec, io, json
s = io.StringIO(); s.write("a=1\\n")
closed = io.StringIO(); closed.close()
try:
    codec.encode(closed); refused = False
except codec.EncodeError:
    refused = True
print(json.dumps({"text": codec.encode(s), "bytes": codec.encode(io.BytesIO(b"\\x00")),
  "differ": codec.same(codec.encode(io.StringIO("a")), codec.encode(io.StringIO("b"))), "refused": refused}))
`;
    const run = spawnSync('/usr/bin/python3', ['-I', '-c', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout);
    expect(out.text).toEqual({ t: 'object', v: { type: '_io.StringIO', state: { t: 'dict', v: [[{ t: 'str', v: 'value' }, { t: 'str', v: 'a=1\n' }]] } } });
    expect(out).toMatchObject({ differ: false, refused: true });
    expect(taggedToPython(out.text, 'prompt')).toBe("io.StringIO('a=1\\n')");
    expect(taggedToPython(out.bytes, 'prompt')).toBe("io.BytesIO(b'\\x00')");
    expect(taggedToPython(out.text)).toBe("_obj('_io.StringIO', {'value': 'a=1\\n'})");
  });
});
