import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the per-IP limiter for requests without credentials was moved into a middleware
 * that only "marks" the response (it sets the X-RateLimit-* headers and, once the budget is spent,
 * Retry-After and status 429) and then calls next() instead of ending the request. The next
 * middleware is the Authorization check, which finds no header and answers its own 401, overriding
 * the status the limiter had already decided. Past 20 anonymous requests a client therefore keeps
 * getting 401 authentication_error, now with Retry-After and X-RateLimit-Remaining: 0, never a 429.
 */
export default defineMutant({
  description:
    'Past the per-IP budget, a request without an Authorization header is still answered 401 authentication_error (carrying Retry-After and Remaining 0) instead of 429 rate_limit_error.',
  breaks: { 'RATE-7': 'fail', 'RATE-9': 'warn' },
  collateral: [],
  modify: (reference) => {
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode !== 429 || req.headers.authorization !== undefined) return payload;
      // The limiter's verdict stays in the headers; the auth check's 401 wins the status and body.
      reply.code(401);
      reply.header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify({ error: { type: 'authentication_error', message: 'An Authorization header with a Bearer key is required.' } });
    });
  },
});
