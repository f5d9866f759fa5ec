import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, sendError } from './errors.js';
import type { ReferenceState } from './state.js';
import type { Account, ApiKeyRecord } from './store.js';

declare module 'fastify' {
  interface FastifyRequest {
    account: Account;
    apiKey: ApiKeyRecord;
  }
}

/**
 * The 401 for a missing or malformed header. The document says its shape differs from the common
 * envelope without showing it; the reference leaves out code, param and path.
 */
function headerProblem(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(401).send({ error: { type: 'authentication_error', message } });
}

/** Authenticates and rate-limits every request under /api/ (API document, Authentication and Limits). */
export async function authenticate(state: ReferenceState, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | void> {
  const { limits } = state.profile;
  const header = req.headers.authorization;
  if (header === undefined) {
    const window = state.limiter.hit(`ip:${req.ip}`, limits.unauthenticatedPerMinute);
    setRateHeaders(state, reply, window);
    if (window.exceeded) return tooMany(state, reply, window.resetAtMs);
    return headerProblem(reply, 'An Authorization header with a Bearer key is required.');
  }
  // RFC 7235: the scheme is case-insensitive and one or more spaces may follow it.
  const match = /^bearer +(\S+)$/i.exec(header);
  if (!match) return headerProblem(reply, 'The Authorization header must be "Bearer <API_KEY>".');
  const token = match[1]!;
  if (!token.startsWith(state.store.keyPrefix)) return headerProblem(reply, 'The API key is incorrectly formatted.');
  const key = state.store.findKey(token);
  const now = state.now();
  if (!key || (key.revokedAtMs !== null && now - key.revokedAtMs >= state.behaviour.revokedGraceMs)) {
    return sendError(reply, 401, 'authentication_error', 'The API key is invalid or has been revoked.');
  }
  const window = state.limiter.hit(state.behaviour.rateBucket(key, req.url.split('?')[0]!), limits.perKeyPerMinute);
  setRateHeaders(state, reply, window);
  if (window.exceeded) return tooMany(state, reply, window.resetAtMs);
  key.lastUsedAt = new Date(now).toISOString();
  req.account = state.store.account(key.accountId);
  req.apiKey = key;
}

function setRateHeaders(state: ReferenceState, reply: FastifyReply, window: { limit: number; remaining: number; resetAtMs: number }): void {
  reply.header('x-ratelimit-limit', String(window.limit));
  reply.header('x-ratelimit-remaining', String(window.remaining));
  reply.header('x-ratelimit-reset', String(state.behaviour.resetHeader(window.resetAtMs, state.now())));
}

function tooMany(state: ReferenceState, reply: FastifyReply, resetAtMs: number): FastifyReply {
  const seconds = state.behaviour.retryAfterSeconds(resetAtMs, state.now());
  reply.header('retry-after', String(seconds));
  const body = errorBody('rate_limit_error', `Too many requests. Retry after ${seconds} seconds.`, { code: 'rate_limit_exceeded' });
  // The document's rate-limit example body has no path member.
  delete body.error.path;
  return reply.code(429).send(body);
}
