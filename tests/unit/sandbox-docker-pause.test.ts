import { PassThrough } from 'node:stream';
import type Dockerode from 'dockerode';
import { describe, expect, it, vi } from 'vitest';
import { createSilentLogger } from '../../src/logging.js';
import { DockerSandbox } from '../../src/sandbox/docker/docker-sandbox.js';
import type { RelayClient } from '../../src/sandbox/relay/relay-client.js';

// DockerSandbox.pause against a fake engine: a freezer that keeps refusing (seen on a loaded
// machine: "OCI runtime pause failed: unable to freeze") must not leave the read-out to a sandbox
// whose processes still run, nor fail the read-out: the sandbox is stopped instead.

function sandboxWith(pause: () => Promise<unknown>) {
  const container = {
    id: 'c0ffee0123456789',
    pause: vi.fn(pause),
    kill: vi.fn(async () => undefined),
    wait: vi.fn(async () => ({ StatusCode: 137 })),
    remove: vi.fn(async () => undefined),
    unpause: vi.fn(async () => undefined),
  };
  const relay = { ready: Promise.resolve(), fail: vi.fn() } as unknown as RelayClient;
  const attributeEnd = vi.fn(async () => ({ by: 'inside' as const, reason: 'test' }));
  const sandbox = new DockerSandbox({
    container: container as unknown as Dockerode.Container,
    spec: { image: 'x', role: 'scoring', workdir: '/workspace', resources: { memoryBytes: 1, cpus: 1, pids: 1 }, labels: {}, expiresAt: new Date() },
    relay,
    stream: new PassThrough(),
    owner: { uid: 1000, gid: 1000 },
    logger: createSilentLogger(),
    onDestroyed: () => undefined,
    attributeEnd,
  });
  return { sandbox, container, relay, attributeEnd };
}

const refusal = (): Promise<never> => Promise.reject(Object.assign(new Error('(HTTP code 500) server error - Cannot pause container: OCI runtime pause failed: unable to freeze: unknown'), { statusCode: 500 }));

describe('DockerSandbox.pause', () => {
  it('stops the container when the freezer keeps refusing, and its relay going away is not taken for an end of the sandbox', async () => {
    const { sandbox, container, attributeEnd } = sandboxWith(refusal);
    await sandbox.pause();
    expect(container.pause).toHaveBeenCalledTimes(4);
    expect(container.kill).toHaveBeenCalledWith({ signal: 'SIGKILL' });
    expect(container.wait).toHaveBeenCalled();
    expect(sandbox.currentState).toBe('paused');
    sandbox.markDead('the relay stream ended');
    expect(sandbox.currentState).toBe('paused');
    expect(sandbox.ended()).toBeNull();
    expect(attributeEnd).not.toHaveBeenCalled();
    await sandbox.destroy();
    expect(container.remove).toHaveBeenCalled();
  });

  it('freezes on a retry after a transient refusal, without stopping anything', async () => {
    let calls = 0;
    const { sandbox, container } = sandboxWith(() => (++calls === 1 ? refusal() : Promise.resolve()));
    await sandbox.pause();
    expect(container.pause).toHaveBeenCalledTimes(2);
    expect(container.kill).not.toHaveBeenCalled();
    expect(sandbox.currentState).toBe('paused');
  });

  it('throws an error that is not the freezer refusing', async () => {
    const { sandbox, container } = sandboxWith(() => Promise.reject(Object.assign(new Error('(HTTP code 500) server error - something else'), { statusCode: 500 })));
    await expect(sandbox.pause()).rejects.toThrow(/something else/);
    expect(container.kill).not.toHaveBeenCalled();
  });
});
