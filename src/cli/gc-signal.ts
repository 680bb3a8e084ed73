/**
 * For memory measurements (`bench --soak`): with node's `--expose-gc` and `CODEMIDAS_GC_SIGNAL` set
 * to a signal name, that signal runs a full garbage collection, so a reading of the server's RSS
 * right after it counts live memory rather than where the collector happened to be. Off unless both
 * are there; says so when the signal is asked for without `--expose-gc`.
 */
export function installGcSignal(signal: string | undefined, say: (line: string) => void): void {
  if (!signal) return;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') {
    say(`CODEMIDAS_GC_SIGNAL=${signal} needs node's --expose-gc (NODE_OPTIONS=--expose-gc): ignored`);
    return;
  }
  try {
    process.on(signal as NodeJS.Signals, () => gc());
  } catch (err) {
    say(`CODEMIDAS_GC_SIGNAL=${signal}: not a signal this process can handle (${err instanceof Error ? err.message : String(err)}): ignored`);
  }
}
