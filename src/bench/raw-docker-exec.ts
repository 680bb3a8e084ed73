import { hostname } from 'node:os';
import Docker from 'dockerode';
import { imageTags } from '../images/image-builder.js';
import {
  LABEL_EXPIRES_AT,
  LABEL_MANAGED,
  LABEL_OWNER_HOST,
  LABEL_OWNER_PID,
  LABEL_ROLE,
} from '../sandbox/docker/docker-sandbox-provider.js';
import { elapsedMs, summarizeLatencies, type LatencySummary } from './latency-stats.js';
import { execOnce } from './raw-engine.js';

/** Options of {@link measureRawDockerExec}. */
export interface RawDockerExecOptions {
  /** Image to start the container from (the python sandbox image). */
  image: string;
  /** Measured execs. Default 60. */
  iterations?: number;
  /** Execs run first and not counted. Default 5. */
  warmup?: number;
  /** Engine client; default `new Docker()` (DOCKER_HOST or the local socket). */
  docker?: Docker;
  signal?: AbortSignal;
}

export interface RawDockerExecResult extends LatencySummary {
  image: string;
}

/** How long the bench container may live if this process dies before removing it. */
const CONTAINER_EXPIRY_MS = 10 * 60_000;

/**
 * The engine's own floor for one command: `docker exec true` through dockerode the way a naive
 * server would do it (create the exec, start it, demultiplex the stream, inspect the exit code), on
 * an idle container of `image`. The container is labelled like the project's sandboxes, so the
 * reaper removes it if this process dies, and is removed before returning.
 */
export async function measureRawDockerExec(options: RawDockerExecOptions): Promise<RawDockerExecResult> {
  const docker = options.docker ?? new Docker();
  const iterations = options.iterations ?? 60;
  const warmup = options.warmup ?? 5;
  const container = await docker.createContainer({
    Image: options.image,
    Cmd: ['sleep', 'infinity'],
    User: '1000:1000',
    NetworkDisabled: true,
    Labels: {
      [LABEL_MANAGED]: 'true',
      [LABEL_ROLE]: 'bench',
      [LABEL_OWNER_PID]: String(process.pid),
      [LABEL_OWNER_HOST]: hostname(),
      [LABEL_EXPIRES_AT]: new Date(Date.now() + CONTAINER_EXPIRY_MS).toISOString(),
    },
    HostConfig: { NetworkMode: 'none', Init: true, AutoRemove: false },
  });
  try {
    await container.start();
    const samples: number[] = [];
    for (let i = 0; i < warmup + iterations; i++) {
      options.signal?.throwIfAborted();
      const start = process.hrtime.bigint();
      const exitCode = await execOnce(docker, container, ['true']);
      const ms = elapsedMs(start);
      if (exitCode !== 0) throw new Error(`docker exec true exited ${exitCode} in ${options.image}`);
      if (i >= warmup) samples.push(ms);
    }
    return { image: options.image, ...summarizeLatencies(samples) };
  } finally {
    await container.remove({ force: true }).catch(() => undefined);
  }
}

/**
 * The python sandbox image: `preferred` when given, else this checkout's content-hash tag when it
 * is built, else the newest local image tagged `codemidas/python:*`. Throws with what to do when
 * there is none.
 */
export async function findPythonImage(docker: Docker, preferred?: string): Promise<string> {
  if (preferred) return preferred;
  const own = imageTags()['python'];
  if (own !== undefined && (await docker.getImage(own).inspect().then(() => true, () => false))) return own;
  const images = await docker.listImages();
  const tagged = images
    .flatMap((img) => (img.RepoTags ?? []).map((tag) => ({ tag, created: img.Created })))
    .filter(({ tag }) => tag.startsWith('codemidas/python:'))
    .sort((a, b) => b.created - a.created);
  const newest = tagged[0];
  if (!newest) {
    throw new Error('no codemidas/python image found: run `node bin/codemidas.js images build` first, or pass --image');
  }
  return newest.tag;
}
