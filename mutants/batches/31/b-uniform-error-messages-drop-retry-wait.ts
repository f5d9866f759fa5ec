import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the pentest report listed "verbose error messages" (for example "workspace_id
 * names no workspace of this account" helps enumerate ids across accounts). The team added an
 * error-sanitising onSend hook that replaces every error message with one fixed text per HTTP
 * status, reasoning that the document says message wording may change and clients must not branch
 * on it. The reviewer checked that type, code and param were untouched, but not that the Limits
 * section requires the 429 message to state the wait in seconds: the generic "Too many requests."
 * no longer does.
 */
const GENERIC: Record<number, string> = {
  400: 'The request is invalid.',
  401: 'Authentication failed.',
  403: 'Access denied.',
  404: 'The requested resource was not found.',
  405: 'The request is invalid.',
  413: 'The request is invalid.',
  415: 'The request is invalid.',
  422: 'The request could not be processed.',
  429: 'Too many requests. Please slow down and try again later.',
  500: 'An unexpected error occurred.',
};

export default defineMutant({
  description: 'An error-sanitising filter replaces every error message with a fixed text per status, so the 429 message no longer states the wait in seconds.',
  breaks: { 'RATE-3': 'fail' },
  collateral: ['RATE-7'],
  modify: (reference) => {
    reference.app.addHook('onSend', async (_req, reply, payload) => {
      const generic = GENERIC[reply.statusCode];
      if (generic === undefined || typeof payload !== 'string') return payload;
      if (!String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
      let body: { error?: { message?: unknown } };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (typeof body !== 'object' || body === null || typeof body.error !== 'object' || body.error === null) return payload;
      if (typeof body.error.message !== 'string') return payload;
      body.error.message = generic;
      return JSON.stringify(body);
    });
  },
});
