import { randomBytes } from 'node:crypto';
import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the error-reporting integration (Sentry-like) was installed following its
 * quick-start, which replaces the framework's error handler with one that captures the error and
 * answers an unexpected-error 500 carrying the event id, so that support can look it up. It was
 * meant for exceptions thrown by handlers, and the team's tests (which always send well-formed
 * JSON) stayed green. But the body parser's own failures reach the same handler: a body that is
 * not valid JSON, a wrong Content-Type or an oversized body are now reported as server faults and
 * answered 500 `api_error` instead of a 4xx. Bodies that parse but are not objects still reach the
 * routes and keep their 422.
 */
const PARSER_FAILURES = new Set(['invalid_json', 'unsupported_media_type', 'body_too_large']);

export default defineMutant({
  description:
    'A request body that is not valid JSON (or has the wrong Content-Type, or is too large) is captured by the error-reporting handler and answered 500 api_error with an event id instead of a 4xx.',
  breaks: { 'GEN-3': 'warn', 'GEN-4': 'warn' },
  collateral: ['SUB-5', 'SUB-2', 'KEY-8'],
  provokedBy: ['SUB', 'KEY'],
  modify: (reference) => {
    reference.app.addHook('onSend', async (_req, reply, payload) => {
      if (typeof payload !== 'string' || reply.statusCode < 400 || reply.statusCode >= 500) return payload;
      let body: { error?: { code?: unknown } };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      const code = typeof body === 'object' && body !== null ? body.error?.code : undefined;
      if (typeof code !== 'string' || !PARSER_FAILURES.has(code)) return payload;
      const eventId = randomBytes(16).toString('hex');
      reply.code(500);
      return JSON.stringify({
        error: { type: 'api_error', code: null, message: `Unexpected server error. Reference: ${eventId}.`, param: null, path: null },
      });
    });
  },
});
