import { createHash, timingSafeEqual } from 'node:crypto';
import { type Metadata, type ServerInterceptor, ServerInterceptingCall, status as Status } from '@grpc/grpc-js';
import { UnauthenticatedError } from '../errors.js';

/** Health checks stay open: probes (kubelet's among them) cannot send metadata, and health reveals nothing. */
const OPEN_PREFIXES = ['/grpc.health.v1.Health/'];

/** True when the metadata carries `authorization: Bearer <token>` with the right token. */
export function hasBearerToken(metadata: Metadata, token: string): boolean {
  const sent = metadata.get('authorization')[0];
  if (typeof sent !== 'string') return false;
  const match = /^Bearer\s+(.+)$/i.exec(sent.trim());
  if (!match?.[1]) return false;
  // Compare digests, so neither the length nor the content of the token leaks through timing.
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}

/**
 * Refuses every call (Environment and reflection alike) that lacks the bearer token with
 * UNAUTHENTICATED, before the request is read.
 */
export function createAuthInterceptor(token: string): ServerInterceptor {
  return (method, call) => {
    if (OPEN_PREFIXES.some((p) => method.path.startsWith(p))) return new ServerInterceptingCall(call);
    return new ServerInterceptingCall(call, {
      start: (next) => {
        next({
          onReceiveMetadata: (metadata, nextMetadata) => {
            if (hasBearerToken(metadata, token)) {
              nextMetadata(metadata);
            } else {
              call.sendStatus({ code: Status.UNAUTHENTICATED, details: new UnauthenticatedError().message });
            }
          },
        });
      },
    });
  };
}
