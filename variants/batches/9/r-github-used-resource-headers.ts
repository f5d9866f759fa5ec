import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: GitHub's REST API ("Rate limits for the REST API", "Checking the
 * status of your rate limit"). Every response, authenticated or not, carries five headers:
 * `x-ratelimit-limit`, `x-ratelimit-remaining`, `x-ratelimit-reset` (Unix seconds),
 * `x-ratelimit-used` ("the number of requests you've made in the current rate limit window") and
 * `x-ratelimit-resource` ("the rate limit resource that the request counted against": `core` for
 * the REST API, `search`, `graphql`, ...). GitHub Enterprise Server sends the same five. GitLab's
 * user and IP rate limits likewise add `RateLimit-Observed` (requests counted) and
 * `RateLimit-Name` (which limit) next to `RateLimit-Limit` and `RateLimit-Remaining`.
 *
 * Here: wherever the reference sends its `X-RateLimit-*` headers (every authenticated response,
 * the responses to requests without an Authorization header, every 429), it also sends
 * `X-RateLimit-Used`, the requests the budget has counted in its window (`Limit - Remaining`, so
 * the ceiling on a 429), and `X-RateLimit-Resource: core`, the name of the one budget a key (or an
 * IP address without a key) has for the whole API. The limits, windows, the three documented
 * headers, `Retry-After` and the 429 itself are the reference's.
 *
 * Why it is conformant:
 * - Limits: the document's three headers are sent as before, where before, as integers, with the
 *   same values (RATE-1, RATE-2, RATE-4, RATE-8); `Retry-After` is still on 429 only (RATE-9).
 *   The document names the headers it requires, not the only ones a response may carry; an added
 *   header under the same `X-RateLimit-` prefix is not one of the three whose form RATE-1 and
 *   RATE-2 fix, even where its value is a word (`core`).
 * - The document leaves HTTP details open, extra headers among them (open point `http-transport`).
 *   The added values agree with the documented ones: Used + Remaining = Limit on every response.
 */

/** GitHub's name for the budget of the REST API; this API has one budget per key (and per IP address without one). */
const RESOURCE = 'core';

export default defineVariant({
  description:
    "GitHub's rate-limit headers: beside X-RateLimit-Limit, -Remaining and -Reset, every limited response carries X-RateLimit-Used (requests counted in the window) and X-RateLimit-Resource: core",
  openPoint: 'http-transport',
  atRisk: ['RATE-1', 'RATE-2', 'RATE-4', 'RATE-7', 'RATE-8'],
  rateLimits: true,
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      const limit = reply.getHeader('x-ratelimit-limit');
      const remaining = reply.getHeader('x-ratelimit-remaining');
      if (limit === undefined || remaining === undefined) return payload;
      reply.header('x-ratelimit-used', String(Number(limit) - Number(remaining)));
      reply.header('x-ratelimit-resource', RESOURCE);
      return payload;
    });
  },
});
