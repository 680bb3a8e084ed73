import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/project-root.js';

describe('imports between the folders of src/', () => {
  it('point one way: no folder reaches itself (a language plugin folder counts as its own)', () => {
    const run = spawnSync(process.execPath, [join(projectRoot(), 'scripts', 'check-import-cycles.mjs')], { encoding: 'utf8' });
    expect(run.stdout).toContain('no import cycle between the top-level folders of src/');
    expect(run.status).toBe(0);
  });
});
