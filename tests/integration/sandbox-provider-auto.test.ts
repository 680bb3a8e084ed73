import Dockerode from 'dockerode';
import { describe, expect, it } from 'vitest';
import { UnavailableError } from '../../src/errors.js';
import { createSilentLogger } from '../../src/logging.js';
import { createDockerImageResolver } from '../../src/images/docker-image-resolver.js';
import { createSandboxProvider } from '../../src/sandbox/create-sandbox-provider.js';
import { bwrapAvailable } from '../../src/sandbox/local/local-sandbox-provider.js';

const logger = createSilentLogger();
const deadEngine = (): Dockerode => new Dockerode({ socketPath: '/nonexistent/docker.sock' });
/** What the composition root passes: the engine client and this checkout's images on it. */
const engineAndImages = (docker: Dockerode) => ({ docker, images: createDockerImageResolver({ docker, logger }) });

describe('createSandboxProvider', () => {
  it('auto picks docker when the engine answers', async () => {
    const provider = await createSandboxProvider({ kind: 'auto', logger, serverId: 'auto-test', ...engineAndImages(new Dockerode()) });
    expect(provider.kind).toBe('docker');
    expect(provider.imageFor('python')).toMatch(/^codemidas\/python:[0-9a-f]{12}$/);
    await provider.close();
  });

  it('docker ping tells the user how to start the engine when it does not answer', async () => {
    const provider = await createSandboxProvider({ kind: 'docker', logger, serverId: 'auto-test', ...engineAndImages(deadEngine()) });
    const error = await provider.ping().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as Error).message).toContain('bash scripts/setup-engine.sh');
  });

  it.skipIf(!bwrapAvailable())('auto falls back to the local bubblewrap sandbox without an engine', async () => {
    const provider = await createSandboxProvider({ kind: 'auto', logger, serverId: 'auto-test', ...engineAndImages(deadEngine()) });
    expect(provider.kind).toBe('local');
    await provider.close();
  });
});
