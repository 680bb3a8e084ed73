/**
 * Floats within a tolerance (issue 19, part 6), with Debian's python3: the judge's `codec.close`
 * and the record harness's verdicts (`codec.rounded`), which must agree on what tells two results apart.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CODEC = join(process.cwd(), 'src', 'languages', 'python', 'judge', 'codec.py');

function runCodec(body: string): any {
  const script = [
    'import importlib.util, json',
    `spec = importlib.util.spec_from_file_location("codec", ${JSON.stringify(CODEC)})`,
    'codec = importlib.util.module_from_spec(spec); spec.loader.exec_module(codec)',
    'e = codec.encode',
    body,
  ].join('\n');
  const run = spawnSync('/usr/bin/python3', ['-I', '-B', '-c', script], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout);
}

describe('floats compared within a tolerance', () => {
  it('takes the same arithmetic in another order as the same result, a different value not', () => {
    const got = runCodec(`print(json.dumps([
      codec.close(e(0.1 + 0.2), e(0.3)),
      codec.close(e([1.0, (0.1 + 0.2, 'x')]), e([1.0, (0.3, 'x')])),
      codec.close(e({'a': 0.1 + 0.2}), e({'a': 0.3})),
      codec.close(e(0.3), e(0.31)),
      codec.close(e(1e-17), e(0.0)),
      codec.close(e(float('nan')), e(float('nan'))),
      codec.close(e(float('inf')), e(1e308)),
      codec.close(e(1.0), e(1)),
      codec.close(e({0.1 + 0.2}), e({0.3})),
      codec.close({'t': 'list', 'v': [{'t': 'float'}]}, e([0.3])),
    ]))`);
    expect(got).toEqual([true, true, true, false, true, true, false, false, false, false]);
  });

  it("gives the record harness's verdicts the same text where the judge finds them close", () => {
    const got = runCodec(`print(json.dumps([
      codec.canonical(codec.rounded(e([0.1 + 0.2, 2]))) == codec.canonical(codec.rounded(e([0.3, 2]))),
      codec.canonical(codec.rounded(e(0.3))) == codec.canonical(codec.rounded(e(0.31))),
      codec.rounded(e(float('nan'))) == e(float('nan')),
    ]))`);
    expect(got).toEqual([true, false, true]);
  });
});
