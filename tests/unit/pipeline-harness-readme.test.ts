/**
 * The literals a repository's README shows a reader (common.readme_strings): inline code in
 * reStructuredText and Markdown and the quoted strings of its examples, in order, distinct, links
 * left out; they join the string inputs and the search's donors.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runWithHarnessModule } from './pipeline-harness-helpers.js';

const repo = mkdtempSync(join(tmpdir(), 'codemidas-readme-'));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

describe('README literals', () => {
  it('takes inline code and quoted example strings, in order, once each', () => {
    writeFileSync(
      join(repo, 'README.rst'),
      ['Query with ``foo.bar[0]`` or ``foo[*].name``.', '', '>>> search("a.b", {"a": {"b": 1}})', "See 'https://example.org/docs' and ``foo.bar[0]`` again."].join('\n'),
    );
    writeFileSync(join(repo, 'README.md'), 'Also `x | y` in Markdown.\n');
    const out = runWithHarnessModule('common', [`print(json.dumps(list(common.readme_strings(${JSON.stringify(repo)}))))`], '');
    expect(out).toEqual(['x | y', 'foo.bar[0]', 'foo[*].name', 'a.b', 'a', 'b']);
  });
});
