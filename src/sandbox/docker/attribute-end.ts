import type Dockerode from 'dockerode';
import type { Logger } from '../../logging.js';
import type { SandboxEnd } from '../types.js';
import type { RelayLoss } from './docker-sandbox.js';
import { statusOf } from './docker-sandbox.js';

/** How long the engine gets for each question asked here. */
const ENGINE_QUESTION_MS = 5_000;
/** How long a container whose relay went may take to be seen as stopped. */
const STOP_WAIT_MS = 5_000;

export interface AttributeEndInput {
  docker: Dockerode;
  container: Dockerode.Container;
  loss: RelayLoss;
  /** What the sandbox saw, e.g. "the container exited" or the hung request's message. */
  reason: string;
  /** When the sandbox was created (engine events since then are its own). */
  createdAtMs: number;
  memoryBytes: number;
  logger: Logger;
}

/** One container event from the engine's event log. */
interface EngineEvent {
  Action?: string;
  status?: string;
  timeNano?: number;
  Actor?: { Attributes?: Record<string, string> };
}

/**
 * Who ended a sandbox whose relay was lost (DESIGN.md, Scoring point 6). The agent must never be
 * able to choose an `outside` end (those are left out of GRPO statistics), so `outside` needs
 * evidence that the cause lay outside the sandbox:
 *  - the engine does not answer (it went away, or is restarting);
 *  - the container is gone (removed by someone else);
 *  - the engine's event log holds a `kill` of it that CodeMidas did not send (`docker kill`,
 *    `docker stop`, a restarting engine stopping its containers). Processes inside the sandbox
 *    cannot reach the engine, so they cannot write such an event.
 * Anything else is `inside`: its processes were killed or exited from inside, it ran out of memory,
 * or its relay stopped answering (then the container is stopped here first). Never rejects.
 */
export async function attributeEnd(input: AttributeEndInput): Promise<SandboxEnd> {
  const { docker, container, loss, logger } = input;
  try {
    await withDeadline(docker.ping(), 'ping');
  } catch (err) {
    return outside(`the container engine stopped answering (${messageOf(err)})`);
  }
  let ourKillNano: number | null = null;
  if (loss === 'hung') {
    ourKillNano = Date.now() * 1e6;
    try {
      await withDeadline(container.kill(), 'kill');
    } catch (err) {
      const status = statusOf(err);
      // 409: not running any more, which is what the kill was for.
      if (status === 404) return outside('the container was removed from outside CodeMidas');
      if (status !== 409) logger.warn({ err }, 'could not stop a sandbox whose relay hung');
    }
  }
  let state: { Running?: boolean; OOMKilled?: boolean; ExitCode?: number } | undefined;
  const until = Date.now() + STOP_WAIT_MS;
  for (;;) {
    try {
      state = (await withDeadline(container.inspect(), 'inspect')).State as typeof state;
    } catch (err) {
      if (statusOf(err) === 404) return outside('the container was removed from outside CodeMidas');
      return outside(`the container engine stopped answering (${messageOf(err)})`);
    }
    if (!state?.Running || Date.now() >= until) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  let events: EngineEvent[];
  try {
    events = await containerEvents(docker, container.id, input.createdAtMs);
  } catch (err) {
    return outside(`the container engine stopped answering (${messageOf(err)})`);
  }
  const kill = events.find((e) => (e.Action ?? e.status) === 'kill' && (ourKillNano === null || (e.timeNano ?? 0) < ourKillNano));
  if (kill) {
    const signal = kill.Actor?.Attributes?.['signal'];
    return outside(`the container was killed from outside CodeMidas${signal ? ` (signal ${signal})` : ''}`);
  }
  const oom = state?.OOMKilled === true || events.some((e) => (e.Action ?? e.status) === 'oom');
  if (oom) return inside(`it ran out of memory (its limit is ${Math.round(input.memoryBytes / 1024 ** 2)} MiB)`);
  if (loss === 'hung') return inside(`its relay stopped answering, so it was stopped (${input.reason})`);
  if (state?.Running) return inside(`its relay went away (${input.reason})`);
  return inside(`its processes ended (exit code ${state?.ExitCode ?? 'unknown'}): the agent's commands killed the sandbox's relay or ended its main process`);
}

function inside(reason: string): SandboxEnd {
  return { by: 'inside', reason };
}

function outside(reason: string): SandboxEnd {
  return { by: 'outside', reason };
}

/** The engine's log of this container's kill, oom and die events since `sinceMs` (a finite read). */
async function containerEvents(docker: Dockerode, id: string, sinceMs: number): Promise<EngineEvent[]> {
  const stream = (await withDeadline(
    docker.getEvents({
      since: Math.floor(sinceMs / 1000),
      until: Math.ceil(Date.now() / 1000) + 1,
      filters: { type: ['container'], container: [id], event: ['kill', 'oom', 'die'] },
    }),
    'events',
  )) as NodeJS.ReadableStream & { destroy?: () => void };
  const chunks: Buffer[] = [];
  await withDeadline(
    new Promise<void>((resolve, reject) => {
      stream.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', reject);
    }),
    'events',
    () => stream.destroy?.(),
  );
  const events: EngineEvent[] = [];
  for (const line of Buffer.concat(chunks).toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      events.push(JSON.parse(line) as EngineEvent);
    } catch {
      // a torn line: ignore it
    }
  }
  return events;
}

async function withDeadline<T>(promise: Promise<T>, what: string, onTimeout?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          onTimeout?.();
          reject(new Error(`no answer to ${what} within ${ENGINE_QUESTION_MS} ms`));
        }, ENGINE_QUESTION_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
