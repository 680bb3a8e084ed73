import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * A suite being built: a hidden folder beside the target (`<out>/.<suite>.building-<pid>-<rand>`),
 * renamed into place by `commit` only when the build succeeded, so a suite on disk is never
 * half-written. `commit` replaces an existing suite of the same name by two renames (old aside,
 * new in), then deletes the old one; if the second rename fails the old suite is put back.
 */
export interface SuiteStaging {
  /** The temporary folder the suite is written into. */
  readonly dir: string;
  /** Where the suite ends up. */
  readonly target: string;
  commit(): Promise<void>;
  /** Removes the temporary folder; idempotent, and a no-op after commit. */
  abort(): Promise<void>;
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null)) !== null;
}

export async function createSuiteStaging(outDir: string, suite: string): Promise<SuiteStaging> {
  await mkdir(outDir, { recursive: true });
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const dir = join(outDir, `.${suite}.building-${tag}`);
  const target = join(outDir, suite);
  await mkdir(dir);
  let state: 'open' | 'committed' | 'aborted' = 'open';
  return {
    dir,
    target,
    async commit() {
      if (state !== 'open') throw new Error(`the staging folder ${dir} is already ${state}`);
      const aside = join(outDir, `.${suite}.replaced-${tag}`);
      const hadOld = await exists(target);
      if (hadOld) await rename(target, aside);
      try {
        await rename(dir, target);
      } catch (err) {
        if (hadOld) await rename(aside, target).catch(() => undefined);
        throw err;
      }
      state = 'committed';
      if (hadOld) await rm(aside, { recursive: true, force: true });
    },
    async abort() {
      if (state !== 'open') return;
      state = 'aborted';
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Writes files (POSIX paths relative to `root`) in sorted order with fixed modes (0644 files,
 * 0755 folders), so two builds give the same bytes and the same permissions.
 */
export async function writeFileTree(root: string, files: ReadonlyMap<string, Buffer>): Promise<void> {
  const paths = [...files.keys()].sort();
  for (const rel of paths) {
    if (rel.startsWith('/') || rel.split('/').includes('..')) throw new Error(`refusing to write outside the package: ${rel}`);
    const full = join(root, ...rel.split('/'));
    await mkdir(dirname(full), { recursive: true, mode: 0o755 });
    await writeFile(full, files.get(rel) ?? Buffer.alloc(0), { mode: 0o644 });
  }
  await mkdir(root, { recursive: true, mode: 0o755 });
}
