import { isIP } from 'node:net';
import { InvalidArgumentError } from '../errors.js';

/** Where the server binds. Default `127.0.0.1:50051`. */
export interface ListenAddress {
  host: string;
  port: number;
}

export const DEFAULT_LISTEN = '127.0.0.1:50051';

/** Parses `host:port`, `[v6]:port` or `:port` (loopback). Port 0 asks the OS for a free port. */
export function parseListenAddress(raw: string): ListenAddress {
  const text = raw.trim();
  let host: string;
  let portText: string;
  const v6 = /^\[([^\]]+)\]:(\d+)$/.exec(text);
  if (v6) {
    host = v6[1] ?? '';
    portText = v6[2] ?? '';
  } else {
    const at = text.lastIndexOf(':');
    if (at < 0) throw new InvalidArgumentError('--listen', `expected host:port, got '${raw}'`);
    host = text.slice(0, at) || '127.0.0.1';
    portText = text.slice(at + 1);
  }
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535) {
    throw new InvalidArgumentError('--listen', `port must be 0..65535, got '${portText}'`);
  }
  if (host.includes(':') && isIP(host) !== 6) {
    throw new InvalidArgumentError('--listen', `write IPv6 addresses in brackets, e.g. [::1]:50051`);
  }
  return { host, port };
}

/** True for addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** `host:port` as grpc-js `bindAsync` wants it (IPv6 in brackets). */
export function formatListenAddress(address: ListenAddress): string {
  return isIP(address.host) === 6 ? `[${address.host}]:${address.port}` : `${address.host}:${address.port}`;
}

/**
 * Refuses a non-loopback address without a bearer token: an unauthenticated environment server
 * on the network runs anyone's commands.
 */
export function assertListenAllowed(address: ListenAddress, authToken: string | undefined): void {
  if (!isLoopbackHost(address.host) && !authToken) {
    throw new InvalidArgumentError(
      '--auth-token',
      `required to listen on ${formatListenAddress(address)} (not loopback): pass --auth-token <token> ` +
        `(clients then send "authorization: Bearer <token>"), or listen on 127.0.0.1`,
    );
  }
}
