import type { Metadata, ServerUnaryCall } from '@grpc/grpc-js';

/** What a handler learns about its call besides the request. */
export interface CallContext {
  /** Aborted when the client cancels or the deadline passes. */
  signal: AbortSignal;
  /** The client's deadline, when it set one. */
  deadline?: Date;
  metadata: Metadata;
  peer: string;
}

/** Builds the call's context; `dispose` drops the listeners and the deadline timer. */
export function createCallContext(call: ServerUnaryCall<unknown, unknown>): { context: CallContext; dispose: () => void } {
  const controller = new AbortController();
  const onCancelled = (): void => controller.abort(new Error('the client cancelled the call'));
  call.once('cancelled', onCancelled);
  const rawDeadline = call.getDeadline();
  const deadlineMs = rawDeadline instanceof Date ? rawDeadline.getTime() : rawDeadline;
  let timer: NodeJS.Timeout | undefined;
  let deadline: Date | undefined;
  if (Number.isFinite(deadlineMs)) {
    deadline = new Date(deadlineMs);
    timer = setTimeout(() => controller.abort(new Error('the call deadline passed')), Math.max(0, deadlineMs - Date.now()));
    timer.unref();
  }
  const context: CallContext = {
    signal: controller.signal,
    metadata: call.metadata,
    peer: call.getPeer(),
    ...(deadline ? { deadline } : {}),
  };
  return {
    context,
    dispose: () => {
      clearTimeout(timer);
      call.removeListener('cancelled', onCancelled);
    },
  };
}
