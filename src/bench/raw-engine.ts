import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { LABEL_EXPIRES_AT, LABEL_MANAGED, LABEL_OWNER_HOST, LABEL_OWNER_PID, LABEL_ROLE, SCORING_CAPABILITIES } from '../sandbox/docker/docker-sandbox-provider.js';
import { packEntries } from '../sandbox/tar-entries.js';
import type { FileEntry } from '../sandbox/types.js';
import { elapsedMs, summarizeLatencies, type LatencySummary } from './latency-stats.js';

/**
 * The engine's own figures, measured with dockerode the way a naive server would work: what each
 * server figure of `codemidas bench` is divided by. Every container is labelled like the project's
 * sandboxes (so the reaper removes it if the bench dies) and removed before the call returns.
 */

const EXPIRY_MS = 10 * 60_000;

function labels(): Record<string, string> {
  return {
    [LABEL_MANAGED]: 'true',
    [LABEL_ROLE]: 'bench',
    [LABEL_OWNER_PID]: String(process.pid),
    [LABEL_OWNER_HOST]: hostname(),
    [LABEL_EXPIRES_AT]: new Date(Date.now() + EXPIRY_MS).toISOString(),
  };
}

/** A container as the server starts an episode's: networking disabled, init, capabilities dropped. */
function createOptions(image: string, cmd: string[], extra: Partial<Docker.ContainerCreateOptions> = {}): Docker.ContainerCreateOptions {
  return {
    Image: image,
    Cmd: cmd,
    User: '1000:1000',
    WorkingDir: '/workspace',
    NetworkDisabled: true,
    Labels: labels(),
    HostConfig: { NetworkMode: 'none', Init: true, CapDrop: ['ALL'], SecurityOpt: ['no-new-privileges'], Memory: 1024 ** 3, PidsLimit: 256 },
    ...extra,
  };
}

async function removeQuietly(containers: Docker.Container[]): Promise<void> {
  await Promise.all(containers.map((c) => c.remove({ force: true }).catch(() => undefined)));
}

/** One create + start of `image` (its removal not timed). */
export async function timeRawCreateStart(docker: Docker, image: string): Promise<number> {
  const start = process.hrtime.bigint();
  const container = await docker.createContainer(createOptions(image, ['sleep', 'infinity']));
  try {
    await container.start();
    return elapsedMs(start);
  } finally {
    await removeQuietly([container]);
  }
}

/** `size` create + starts at once (what a ResetGroup of `size` costs a naive server), `iterations` times. */
export async function measureRawGroupStart(docker: Docker, image: string, size: number, iterations: number): Promise<LatencySummary> {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    const created: Docker.Container[] = [];
    try {
      await Promise.all(
        Array.from({ length: size }, async () => {
          const c = await docker.createContainer(createOptions(image, ['sleep', 'infinity']));
          created.push(c);
          await c.start();
        }),
      );
      samples.push(elapsedMs(start));
    } finally {
      await removeQuietly(created);
    }
  }
  return summarizeLatencies(samples);
}

/** A shell kept alive in a container, fed `true` over its attached stdin: the floor of any relay. */
export async function measureRawShellRoundTrip(docker: Docker, image: string, iterations: number): Promise<LatencySummary> {
  const container = await docker.createContainer(
    createOptions(image, ['sh'], { AttachStdin: true, AttachStdout: true, AttachStderr: true, OpenStdin: true, StdinOnce: false, Tty: false }),
  );
  try {
    const stream = (await container.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true })) as NodeJS.ReadWriteStream;
    await container.start();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    stderr.resume();
    docker.modem.demuxStream(stream, stdout, stderr);
    let buffer = '';
    let waiting: { marker: string; resolve: () => void } | null = null;
    stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      if (waiting && buffer.includes(waiting.marker)) {
        buffer = '';
        const w = waiting;
        waiting = null;
        w.resolve();
      }
    });
    const samples: number[] = [];
    for (let i = 0; i < iterations + 10; i++) {
      const marker = `__done_${i}__`;
      const start = process.hrtime.bigint();
      await new Promise<void>((resolve) => {
        waiting = { marker, resolve };
        stream.write(`true; echo ${marker}\n`);
      });
      if (i >= 10) samples.push(elapsedMs(start));
    }
    stream.end();
    return summarizeLatencies(samples);
  } finally {
    await removeQuietly([container]);
  }
}

/** `docker exec` of a command, its output drained; returns the exit code. */
export async function execOnce(docker: Docker, container: Docker.Container, cmd: string[], user?: string): Promise<number | null> {
  const exec = await container.exec({ Cmd: cmd, AttachStdout: true, AttachStderr: true, Tty: false, ...(user ? { User: user } : {}) });
  const stream = await exec.start({ hijack: true, stdin: false });
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.resume();
  stderr.resume();
  docker.modem.demuxStream(stream, stdout, stderr);
  await new Promise<void>((resolve, reject) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', reject);
  });
  return (await exec.inspect()).ExitCode;
}

export interface RawTestRun {
  /** The files copied in (putArchive) and the judge run (docker exec), in a container started beforehand. */
  testRun: LatencySummary;
}

/**
 * A task's test run in a fresh container, the naive way: start a scoring-like container (not
 * timed), then copy in the workspace and the hidden tests and `docker exec` the same judge with the
 * same configuration the scorer uses (timed).
 */
export async function measureRawTestRun(
  docker: Docker,
  options: { image: string; workdir: string; workspace: FileEntry[]; hidden: FileEntry[]; hiddenDir: string; judgePath: string; config: Record<string, unknown>; iterations: number },
): Promise<RawTestRun> {
  const samples: number[] = [];
  const workspaceTar = await packEntries(options.workspace, { uid: 1000, gid: 1000 });
  const hiddenTar = await packEntries(
    options.hidden.map((e) => ({ ...e, mode: e.type === 'directory' ? 0o700 : 0o600 })),
    { uid: 0, gid: 0 },
  );
  const configTar = await packEntries([{ path: 'bench-config.json', type: 'file', mode: 0o600, content: Buffer.from(JSON.stringify(options.config)) }], { uid: 0, gid: 0 });
  for (let i = 0; i < options.iterations; i++) {
    const container = await docker.createContainer(
      createOptions(options.image, ['sleep', 'infinity'], {
        User: '0:0',
        HostConfig: { NetworkMode: 'none', Init: true, CapDrop: ['ALL'], CapAdd: SCORING_CAPABILITIES, SecurityOpt: ['no-new-privileges'], Memory: 1024 ** 3, PidsLimit: 256 },
      }),
    );
    try {
      await container.start();
      await execOnce(docker, container, ['mkdir', '-p', options.workdir, options.hiddenDir]);
      const start = process.hrtime.bigint();
      await container.putArchive(workspaceTar, { path: options.workdir });
      await container.putArchive(hiddenTar, { path: options.hiddenDir });
      await container.putArchive(configTar, { path: '/var/lib/codemidas' });
      const exit = await execOnce(docker, container, ['sh', '-c', `python3 -I ${options.judgePath} < /var/lib/codemidas/bench-config.json`]);
      samples.push(elapsedMs(start));
      if (exit === null) throw new Error('the raw judge run gave no exit code');
    } finally {
      await removeQuietly([container]);
    }
  }
  return { testRun: summarizeLatencies(samples) };
}

/** MemAvailable of the host, in bytes (includes what dockerd, containerd and the shims take). */
export function hostMemAvailableBytes(): number {
  const line = readFileSync('/proc/meminfo', 'utf8').split('\n').find((l) => l.startsWith('MemAvailable:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? Number.NaN) * 1024;
}

/** Host memory per idle container: MemAvailable before and after starting `count` of them. */
export async function measureRawIdleMemory(docker: Docker, image: string, count: number): Promise<{ count: number; bytesPerContainer: number }> {
  const created: Docker.Container[] = [];
  try {
    await new Promise((r) => setTimeout(r, 500));
    const before = hostMemAvailableBytes();
    for (let i = 0; i < count; i += 8) {
      await Promise.all(
        Array.from({ length: Math.min(8, count - i) }, async () => {
          const c = await docker.createContainer(createOptions(image, ['sleep', 'infinity']));
          created.push(c);
          await c.start();
        }),
      );
    }
    await new Promise((r) => setTimeout(r, 1500));
    const after = hostMemAvailableBytes();
    return { count, bytesPerContainer: (before - after) / count };
  } finally {
    await removeQuietly(created);
  }
}
