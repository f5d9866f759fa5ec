import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: Discord's API ("Rate Limits", "Exceeding A Rate Limit"). Its 429
 * carries the wait twice: in the `Retry-After` header, in whole seconds, and in the JSON body, as
 * `retry_after`, a float of seconds to the millisecond ("The number of seconds to wait before
 * submitting another request"), together with `global`, a boolean saying whether the limit hit is
 * the global one rather than a per-route bucket. Clients that pace themselves finely (discord.py
 * reads `retry_after` from the 429's body) sleep the float; everything else reads the header, whose
 * whole seconds round the wait up by as much as a second.
 *
 * Here: the 429 error object, for a key past its ceiling and for an IP address past its budget,
 * carries two more members: `retry_after`, the seconds from now to the end of the window as a
 * number with millisecond precision (above `Retry-After` - 1, at most `Retry-After`, so that the
 * milliseconds the response takes to write never put the two a second apart), and `global: true`,
 * since a key's budget (and an IP address's) covers every endpoint of the API, not one route.
 * `type`, `code`, `message`, `param` (and the missing `path`) are the reference's, and so are
 * `Retry-After`, the `X-RateLimit-*` headers and the limits.
 *
 * Why it is conformant:
 * - Errors: the error object's listed members are all there with their types (ERR-1: 429 may omit
 *   `path`, as the reference does); the document lists the members an error has, and does not
 *   exclude others (open point `extra-members`). Status and type agree (ERR-2).
 * - Limits: "429 with type rate_limit_error, code rate_limit_exceeded, a message that states the
 *   wait in seconds, and param null": the message still states `Retry-After`'s whole seconds
 *   (RATE-3); `retry_after` is the same wait before rounding up, so it is below `Retry-After` by
 *   less than one second and never contradicts it. `Retry-After` and the three headers are on every
 *   429 (RATE-4, RATE-7), and waiting `Retry-After` still finds the window over (RATE-5).
 */

export default defineVariant({
  description:
    'Discord-style 429 body: the error object of every 429 also carries retry_after (seconds to the end of the window, a float to the millisecond) and global: true, beside Retry-After in whole seconds',
  openPoint: 'extra-members',
  atRisk: ['ERR-1', 'ERR-2', 'RATE-3', 'RATE-4', 'RATE-7'],
  rateLimits: true,
  modify: ({ app, state }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 429 || typeof payload !== 'string') return payload;
      const reset = Number(reply.getHeader('x-ratelimit-reset'));
      const retryAfter = Number(reply.getHeader('retry-after'));
      if (!Number.isFinite(reset) || !Number.isFinite(retryAfter)) return payload;
      const body = JSON.parse(payload) as { error?: Record<string, unknown> };
      if (!body.error) return payload;
      // The window ends at the Reset second (the reference's windows end on whole seconds).
      const exact = Math.round(reset * 1000 - state.limiter.now()) / 1000;
      body.error.retry_after = Math.min(retryAfter, Math.max(retryAfter - 0.999, exact));
      body.error.global = true;
      return JSON.stringify(body);
    });
  },
});
