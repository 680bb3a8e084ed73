import { createHash } from 'node:crypto';
import type Dockerode from 'dockerode';
import type { Logger } from '../logging.js';
import { packEntries } from '../sandbox/tar-entries.js';
import type { FileEntry } from '../sandbox/types.js';
import { buildFromContext, imageExists, shortHash } from './image-builder.js';

/** The agent user that owns the baked workspace (the episode sandbox's user). */
const AGENT = { uid: 1000, gid: 1000 };

const building = new Map<string, Promise<string>>();

/**
 * `codemidas/workspace:<hash>`: the hash covers the base image's id (not its tag, so a rebuilt base
 * gives a new image), the workdir, and every entry's path, type, mode, link target and content.
 * Tasks with identical workspaces share one image.
 */
export function workspaceImageTag(baseImageId: string, workdir: string, entries: readonly FileEntry[]): string {
  const lines = [...entries]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((e) => [e.path, e.type, e.mode.toString(8), e.linkTarget ?? '', e.content ? createHash('sha256').update(e.content).digest('hex') : ''].join('\t'));
  return `codemidas/workspace:${shortHash([baseImageId, workdir, ...lines])}`;
}

/**
 * Builds (when missing) an image that is `image` with `entries` at `workdir`, owned by the agent
 * user: one thin layer, so a sandbox starts with its codebase copy-on-write instead of having it
 * uploaded (≈ 90 ms against ≈ 1 s for a 20 MB tree). Returns its tag. Concurrent calls share a build.
 */
export async function ensureWorkspaceImage(options: {
  docker: Dockerode;
  image: string;
  workdir: string;
  entries: readonly FileEntry[];
  logger: Logger;
}): Promise<string> {
  const base = await options.docker.getImage(options.image).inspect();
  const tag = workspaceImageTag(base.Id, options.workdir, options.entries);
  if (await imageExists(options.docker, tag)) return tag;
  let running = building.get(tag);
  if (!running) {
    running = (async () => {
      const started = performance.now();
      const dockerfile = `FROM ${base.Id}\nCOPY --chown=${AGENT.uid}:${AGENT.gid} workspace/ ${options.workdir.replace(/\/+$/, '')}/\n`;
      const context = await packEntries(
        [
          { path: 'Dockerfile', type: 'file', mode: 0o644, content: Buffer.from(dockerfile) },
          { path: 'workspace', type: 'directory', mode: 0o755 },
          ...options.entries.map((e) => ({ ...e, path: `workspace/${e.path}` })),
        ],
        AGENT,
      );
      await buildFromContext(options.docker, context, { t: tag, labels: { 'codemidas.image': 'workspace', 'codemidas.workspace-of': options.image } }, () => undefined);
      options.logger.info({ image: tag, from: options.image, files: options.entries.length, elapsedMs: Math.round(performance.now() - started) }, 'built the workspace image');
      return tag;
    })().finally(() => building.delete(tag));
    building.set(tag, running);
  }
  return running;
}
