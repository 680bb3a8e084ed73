import type { Logger } from '../logging.js';
import { FailedPreconditionError } from '../errors.js';

/**
 * The episode lifecycle. `starting` → `ready` ⇄ `stepping`; `ready` → `submitted` (via a Submit step)
 * → `scoring` → `scored`; Reward may also start from `ready` (the agent stopped without submitting).
 * Any state → `closed`. When the sandbox stops during a step: `ended` if what the agent ran ended it
 * (the episode can still be scored, as its workspace stands), `failed` if the cause lay outside it
 * (the engine, or someone killing the container: Reward reports INFRA_ERROR).
 */
export type EpisodeState = 'starting' | 'ready' | 'stepping' | 'submitted' | 'ended' | 'scoring' | 'scored' | 'failed' | 'closed';

const ALLOWED: Readonly<Record<EpisodeState, readonly EpisodeState[]>> = {
  starting: ['ready', 'failed', 'closed'],
  ready: ['stepping', 'scoring', 'failed', 'closed'],
  stepping: ['ready', 'submitted', 'ended', 'failed', 'closed'],
  submitted: ['scoring', 'failed', 'closed'],
  ended: ['scoring', 'closed'],
  scoring: ['scored', 'failed', 'closed'],
  scored: ['closed'],
  failed: ['closed'],
  closed: [],
};

export function canTransition(from: EpisodeState, to: EpisodeState): boolean {
  return ALLOWED[from].includes(to);
}

/** Something with a state that the transition function may move. */
export interface HasEpisodeState {
  readonly id: string;
  state: EpisodeState;
}

/**
 * The one place an episode changes state. Logs every change; an illegal move is a
 * `FailedPreconditionError` (the caller asked for something the episode cannot do now).
 */
export function transition(target: HasEpisodeState, to: EpisodeState, logger: Logger, why = ''): void {
  const from = target.state;
  if (!canTransition(from, to)) {
    throw new FailedPreconditionError(`episode '${target.id}' is ${from}; cannot move to ${to}${why ? ` (${why})` : ''}`);
  }
  target.state = to;
  // ready ⇄ stepping happens on every step: keep it out of the info log.
  const level = (from === 'ready' && to === 'stepping') || (from === 'stepping' && to === 'ready') ? 'debug' : 'info';
  logger[level]({ from, to, ...(why ? { why } : {}) }, 'episode state');
}
