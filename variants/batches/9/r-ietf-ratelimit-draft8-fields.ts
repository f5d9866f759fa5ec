import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { ApiKeyRecord } from '../../../reference/store.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: express-rate-limit, a widely used rate limiter for Node, with
 * `standardHeaders: 'draft-8'` and its default `legacyHeaders: true`. Every limited response then
 * carries the legacy `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (Unix
 * seconds, rounded up) and, beside them, the two fields of draft-ietf-httpapi-ratelimit-headers-08
 * as structured fields (RFC 9651): `RateLimit-Policy: "100-in-1min"; q=100; w=60; pk=:…:` (the
 * quota policy: its name, quota, window in seconds, partition key) and
 * `RateLimit: "100-in-1min"; r=57; t=34` (remaining quota, and seconds until it resets, as a
 * delta). The policy name is the library's default identifier, `<limit>-in-<window>`; the
 * partition key is the first 12 hex digits of the SHA-256 of the limiter's key, base64-encoded
 * (express-rate-limit 7.5, `source/headers.ts`, `setDraft8Headers`).
 *
 * Here: wherever the reference sends its `X-RateLimit-*` headers (every authenticated response,
 * the responses to requests without an Authorization header, every 429), it also sends
 * `RateLimit-Policy` and `RateLimit` for the same budget: `q` is the ceiling (100 per key, 20 per
 * IP address), `w` the window in seconds, `r` the same number as `X-RateLimit-Remaining`, `t` the
 * seconds until `X-RateLimit-Reset`. The partition key hashes the limiter's bucket name (the key's
 * id, or the IP address), never the secret. The limits, windows, `X-RateLimit-*` values,
 * `Retry-After` and the 429 itself are the reference's.
 *
 * Why it is conformant:
 * - Limits: the document's three headers are sent as before, where before, as integers, with the
 *   same values (RATE-1, RATE-2, RATE-4, RATE-8); `Retry-After` is still on 429 only (RATE-9):
 *   the draft's `t` is a parameter of another field, not a `Retry-After`, and the 429 keeps its
 *   own `Retry-After` and message as the reference writes them (RATE-3).
 * - The document leaves HTTP details open, extra headers among them (open point `http-transport`),
 *   and lists the headers it requires, not the only ones a response may carry. The two added fields
 *   state the same budget in the draft's syntax; nothing in them contradicts a documented header.
 * - KEY-4: the partition key is derived from the key's id, not from its secret, and is a hash:
 *   no response carries any part of a secret.
 */

/** express-rate-limit's default policy name: `<limit>-in-<window>`. */
function policyName(limit: number, windowSeconds: number): string {
  const minutes = windowSeconds / 60;
  const hours = minutes / 60;
  const days = hours / 24;
  let duration: string;
  if (windowSeconds < 60) duration = `${windowSeconds}sec`;
  else if (minutes < 60) duration = `${minutes}min`;
  else if (hours < 24) duration = `${hours}hr${hours > 1 ? 's' : ''}`;
  else duration = `${days}day${days > 1 ? 's' : ''}`;
  return `${limit}-in-${duration}`;
}

/** express-rate-limit's partition key: 12 hex digits of the SHA-256 of the limiter's key, in base64. */
function partitionKey(bucket: string): string {
  return Buffer.from(createHash('sha256').update(bucket).digest('hex').slice(0, 12)).toString('base64');
}

export default defineVariant({
  description:
    'express-rate-limit with standardHeaders \'draft-8\' and legacy headers: beside X-RateLimit-*, every limited response carries the IETF draft-08 fields RateLimit-Policy ("100-in-1min"; q=100; w=60; pk=...) and RateLimit (r=remaining; t=seconds to reset)',
  openPoint: 'http-transport',
  atRisk: ['RATE-1', 'RATE-2', 'RATE-4', 'RATE-8', 'RATE-9', 'KEY-4'],
  rateLimits: true,
  modify: ({ app, state }) => {
    /** The limiter bucket the request was counted in: its key's, or its IP address's; null when it counted in none. */
    const bucketOf = (req: FastifyRequest): string | null => {
      const path = req.url.split('?')[0]!;
      const known = (req as { apiKey?: ApiKeyRecord }).apiKey;
      if (known) return state.behaviour.rateBucket(known, path);
      const header = req.headers.authorization;
      if (header === undefined) return `ip:${req.ip}`;
      // A 429 for a valid key answers before the request is bound to it: find the key again.
      const token = /^bearer +(\S+)$/i.exec(header)?.[1];
      const key = token === undefined ? null : state.store.findKey(token);
      return key ? state.behaviour.rateBucket(key, path) : null;
    };

    app.addHook('onSend', async (req, reply, payload) => {
      const limit = reply.getHeader('x-ratelimit-limit');
      const remaining = reply.getHeader('x-ratelimit-remaining');
      const reset = reply.getHeader('x-ratelimit-reset');
      if (limit === undefined || remaining === undefined || reset === undefined) return payload;
      const bucket = bucketOf(req);
      if (bucket === null) return payload;
      const windowSeconds = state.profile.limits.windowSeconds;
      const name = policyName(Number(limit), windowSeconds);
      const untilReset = Math.max(0, Math.ceil((Number(reset) * 1000 - state.limiter.now()) / 1000));
      reply.header('ratelimit-policy', `"${name}"; q=${Number(limit)}; w=${windowSeconds}; pk=:${partitionKey(bucket)}:`);
      reply.header('ratelimit', `"${name}"; r=${Number(remaining)}; t=${untilReset}`);
      return payload;
    });
  },
});
