/**
 * A signal aborted when any of `signals` aborts, with a `dispose` that drops the listeners.
 * Used on the step path instead of `AbortSignal.any`, which costs ~65 µs a call on Node 20 and keeps
 * every composite registered on long-lived sources (an episode's lifetime) until a GC.
 */
export function linkSignals(signals: ReadonlyArray<AbortSignal | undefined>): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const sources = signals.filter((s): s is AbortSignal => s !== undefined);
  const aborted = sources.find((s) => s.aborted);
  if (aborted) {
    controller.abort(aborted.reason);
    return { signal: controller.signal, dispose: () => undefined };
  }
  const onAbort = function (this: AbortSignal): void {
    controller.abort(this.reason);
    dispose();
  };
  const dispose = (): void => {
    for (const source of sources) source.removeEventListener('abort', onAbort);
  };
  for (const source of sources) source.addEventListener('abort', onAbort);
  return { signal: controller.signal, dispose };
}
