/**
 * Sends arbitrary bytes to a gRPC server: as a request message that grpc-js frames (a passthrough
 * serializer), or as the whole HTTP/2 request body, framing and headers included.
 */
import http2 from 'node:http2';
import * as grpc from '@grpc/grpc-js';

export interface Answer {
  /** The status code's name (`OK`, `INVALID_ARGUMENT`, ...), or `NO_STATUS` when none came back. */
  code: string;
  details: string;
  /** The response message, when the call succeeded (or a streaming call's first message). */
  message?: Buffer;
}

export interface RawCallOptions {
  deadlineMs: number;
  /** Server-streaming (health Watch): the first message counts as the answer, and the call is cancelled. */
  streaming?: boolean;
}

const passthrough = (b: Buffer): Buffer => b;

/** `bytes` as the request message of `path`, framed by grpc-js. */
export function sendFramed(client: grpc.Client, path: string, bytes: Buffer, options: RawCallOptions): Promise<Answer> {
  const callOptions = { deadline: Date.now() + options.deadlineMs };
  return new Promise((resolve) => {
    if (options.streaming) {
      const stream = client.makeServerStreamRequest(path, passthrough, passthrough, bytes, new grpc.Metadata(), callOptions);
      let first: Buffer | undefined;
      stream.on('data', (message: Buffer) => {
        first ??= message;
        stream.cancel();
      });
      stream.on('error', (err: grpc.ServiceError) => {
        if (first && err.code === grpc.status.CANCELLED) resolve({ code: 'OK', details: '', message: first });
        else resolve({ code: grpc.status[err.code] ?? String(err.code), details: err.details });
      });
      stream.on('status', (s: grpc.StatusObject) => {
        if (s.code === grpc.status.OK) resolve({ code: 'OK', details: s.details, ...(first ? { message: first } : {}) });
      });
      return;
    }
    client.makeUnaryRequest(path, passthrough, passthrough, bytes, new grpc.Metadata(), callOptions, (err, message) =>
      resolve(err ? { code: grpc.status[err.code] ?? String(err.code), details: err.details } : { code: 'OK', details: '', ...(message ? { message } : {}) }),
    );
  });
}

/** `body` as the whole HTTP/2 request body of `path` (no framing added), with extra headers; reads grpc-status back. */
export function sendRaw(session: http2.ClientHttp2Session, path: string, body: Buffer, headers: Record<string, string>, options: RawCallOptions): Promise<Answer> {
  return new Promise((resolve) => {
    const request = session.request({
      ':method': 'POST',
      ':path': path,
      'content-type': 'application/grpc',
      te: 'trailers',
      'grpc-timeout': `${options.deadlineMs}m`,
      ...headers,
    });
    let responseHeaders: http2.IncomingHttpHeaders = {};
    let sawData = false;
    let done = false;
    const finish = (from: http2.IncomingHttpHeaders): void => {
      if (done) return;
      done = true;
      const status = from['grpc-status'] ?? responseHeaders['grpc-status'];
      if (status === undefined) {
        resolve(sawData ? { code: 'OK', details: '' } : { code: 'NO_STATUS', details: `http ${String(responseHeaders[':status'])}` });
        return;
      }
      const code = grpc.status[Number(status)] ?? String(status);
      resolve({ code, details: decodeURIComponent(String(from['grpc-message'] ?? responseHeaders['grpc-message'] ?? '')) });
    };
    request.on('response', (h) => {
      responseHeaders = h;
    });
    request.on('data', () => {
      sawData = true;
      if (options.streaming) request.close(http2.constants.NGHTTP2_CANCEL);
    });
    request.on('trailers', (t) => finish(t));
    request.on('close', () => finish({}));
    request.on('error', () => finish({}));
    request.end(body);
  });
}
