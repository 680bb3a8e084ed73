import { describe, expect, it } from 'vitest';
import { createWorkspaceImageQueue } from '../../src/episodes/workspace-image-queue.js';
import { createSilentLogger } from '../../src/logging.js';
import { FakeProvider, makeTask, WORKSPACE } from './episodes-fakes.js';

/** A provider whose workspace-image builds wait until the test lets them finish. */
class SlowBuildProvider extends FakeProvider {
  running = 0;
  mostAtOnce = 0;
  failNext = false;
  private releases: Array<() => void> = [];
  override async prepareWorkspaceImage(): Promise<string | null> {
    this.workspaceImageCalls++;
    this.running++;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
    await new Promise<void>((resolve) => this.releases.push(resolve));
    this.running--;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('build failed');
    }
    return `codemidas/workspace:${this.workspaceImageCalls}`;
  }
  /** Lets every build waiting now finish. */
  release(): void {
    for (const resolve of this.releases.splice(0)) resolve();
  }
}

function queueOf(provider: FakeProvider) {
  return createWorkspaceImageQueue({ provider, logger: createSilentLogger(), readWorkspace: async () => WORKSPACE });
}

describe('createWorkspaceImageQueue', () => {
  it('builds two images at a time, each task once, and hands out an image only once it is built', async () => {
    const provider = new SlowBuildProvider();
    const queue = queueOf(provider);
    const tasks = ['a', 'b', 'c', 'd'].map((name) => makeTask(name));
    const events: string[] = [];
    const done = queue.prepare(tasks, { onReady: (taskId, image) => events.push(`${taskId} ${image}`) });
    expect(queue.readyImage(tasks[0]!)).toBeNull();
    while (events.length < tasks.length) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      provider.release();
    }
    await done;
    expect(provider.mostAtOnce).toBe(2);
    expect(provider.workspaceImageCalls).toBe(4);
    expect(queue.readyImage(tasks[0]!)).toMatch(/^codemidas\/workspace:\d$/);
    expect(provider.workspaceImageCalls).toBe(4);
  });

  it('reports a failed build and starts it again on the next call', async () => {
    const provider = new SlowBuildProvider();
    provider.failNext = true;
    const queue = queueOf(provider);
    const task = makeTask();
    const errors: unknown[] = [];
    const first = queue.prepare([task], { onReady: (_id, _image, err) => errors.push(err) });
    await new Promise((resolve) => setTimeout(resolve, 5));
    provider.release();
    await first;
    expect(errors).toEqual([expect.objectContaining({ message: 'build failed' })]);
    expect(queue.readyImage(task)).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 5));
    provider.release();
    await queue.prepare([task]);
    expect(provider.workspaceImageCalls).toBe(2);
    expect(queue.readyImage(task)).toBe('codemidas/workspace:2');
  });
});
