import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A suite being built: a hidden folder beside the target (`<out>/.<suite>.building-<host>-<pid>-<rand>`),
 * renamed into place by `commit` only when the build succeeded, so a suite on disk is never
 * half-written. `commit` replaces an existing suite of the same name by two renames (old aside as
 * `.<suite>.replaced-<host>-<pid>-<rand>`, new in), then deletes the old one; if the second rename
 * fails the old suite is put back. A build killed outright (SIGKILL, power loss) leaves its hidden
 * folders behind: `reclaimStaleStaging` removes them (and puts back a suite set aside) once their
 * process is gone.
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

/** This host's name as it appears in staging folder names (letters, digits, `.`, `_` and `-`). */
export function hostTag(): string {
  return hostname().replace(/[^A-Za-z0-9._-]/g, '_') || 'host';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive, owned by someone else
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What `reclaimStaleStaging` did, one entry per folder. */
export interface ReclaimedFolder {
  name: string;
  action: 'removed' | 'restored';
}

/**
 * Cleans up after builds of `suite` into `outDir` that were killed before they could: removes their
 * `.<suite>.building-*` folders and `.<suite>.funnel.json.tmp-*` files, and their `.<suite>.replaced-*` folders (a build killed between the two
 * renames of `commit`: the old suite is renamed back when the target is missing). Only folders of
 * this host whose process is gone are touched, so a build running now is never disturbed. A missing
 * `outDir` is nothing to do.
 */
export async function reclaimStaleStaging(outDir: string, suite: string): Promise<ReclaimedFolder[]> {
  let names: string[];
  try {
    names = (await readdir(outDir)).sort();
  } catch {
    return [];
  }
  const pattern = new RegExp(`^\\.${escapeRegExp(suite)}\\.(building|replaced|funnel\\.json\\.tmp)-(.+)-(\\d+)-[0-9a-f]{8}$`);
  const host = hostTag();
  const done: ReclaimedFolder[] = [];
  for (const name of names) {
    const match = pattern.exec(name);
    if (match === null || match[2] !== host || processAlive(Number(match[3]))) continue;
    const path = join(outDir, name);
    if (match[1] === 'replaced' && !(await exists(join(outDir, suite)))) {
      await rename(path, join(outDir, suite));
      done.push({ name, action: 'restored' });
    } else {
      await rm(path, { recursive: true, force: true });
      done.push({ name, action: 'removed' });
    }
  }
  return done;
}

export async function createSuiteStaging(outDir: string, suite: string): Promise<SuiteStaging> {
  await mkdir(outDir, { recursive: true });
  const tag = `${hostTag()}-${process.pid}-${randomBytes(4).toString('hex')}`;
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

/**
 * Writes one file so that readers see the old content or the new, never a part: a hidden temporary
 * file beside it (`.<name>.tmp-<host>-<pid>-<rand>`), then a rename.
 */
export async function writeFileAtomic(path: string, content: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o755 });
  const base = path.slice(dirname(path).length + 1);
  const temp = join(dirname(path), `.${base}.tmp-${hostTag()}-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(temp, content, { mode: 0o644 });
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}
