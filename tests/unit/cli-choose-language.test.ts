import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseLanguage } from '../../src/cli/choose-language.js';
import { createLanguages } from '../../src/cli/languages.js';

const made: string[] = [];
function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'codemidas-choose-'));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('chooseLanguage (codemidas build)', () => {
  const languages = createLanguages();

  it('takes the plugin whose source files the repository holds most of, leaving dependencies and build output out', () => {
    const js = repo({ 'package.json': '{}', 'src/a.js': '', 'src/b.ts': '', 'tools/gen.py': '', 'node_modules/x/y.py': '', 'dist/z.py': '' });
    expect(chooseLanguage(languages, { dir: js, origin: js }).language).toBe('javascript');
    const py = repo({ 'pkg/__init__.py': '', 'pkg/core.py': '', 'docs/conf.js': '' });
    expect(chooseLanguage(languages, { dir: py, origin: py }).language).toBe('python');
  });

  it('takes the plugin --language names, and refuses one no plugin serves, naming those there are', () => {
    const py = repo({ 'pkg/core.py': '' });
    expect(chooseLanguage(languages, { dir: py, origin: py }, 'typescript').language).toBe('javascript');
    expect(() => chooseLanguage(languages, { dir: py, origin: py }, 'cobol')).toThrow(/no language plugin serves 'cobol'/);
  });

  it('says which languages it looked for when none is there, and that --language names one', () => {
    const empty = repo({ 'README.md': '# x' });
    expect(() => chooseLanguage(languages, { dir: empty, origin: empty })).toThrow(/no supported language found in .*\(python: no \.py files; javascript: /);
  });

  it('builds a git URL with Python unless --language names another (it cannot be looked into before it is cloned)', () => {
    expect(chooseLanguage(languages, { dir: null, origin: 'https://example.invalid/x.git' }).language).toBe('python');
    expect(chooseLanguage(languages, { dir: null, origin: 'https://example.invalid/x.git' }, 'javascript').language).toBe('javascript');
  });

  it("detects from a file list when one is given (a tarball's members, read without unpacking)", () => {
    expect(chooseLanguage(languages, { dir: null, origin: 'kit-1.2.tar.gz', files: ['package.json', 'src/a.ts', 'src/b.js', 'tools/x.py'] }).language).toBe('javascript');
    expect(chooseLanguage(languages, { dir: null, origin: 'kit-1.2.tar.gz', files: ['kit/__init__.py', 'kit/core.py'] }).language).toBe('python');
    expect(() => chooseLanguage(languages, { dir: null, origin: 'kit-1.2.tar.gz', files: ['README.md'] })).toThrow(/no supported language found in kit-1\.2\.tar\.gz/);
  });
});
