import { defineMutant } from '../../mutant.js';

/*
 * How this happens: to "stop allocating a defaults object per error", the error helper was
 * rewritten as `{ error: Object.assign(ERROR_DEFAULTS, { type, message }, details) }`, meaning
 * `Object.assign({}, ERROR_DEFAULTS, ...)`. The module-level defaults object is now the body of
 * every error and is mutated by each one; callers pass only the details they know (a null is simply
 * not passed). An error that sets no code, param or path (a 404, a 401 for an unknown key, a 429's
 * param) goes out with whatever code, param and path the previous error of any request, any key,
 * left behind: a 404 for a missing record after a 422 on `limit` says code `invalid_value`, param
 * `limit`. Every error is right until some earlier error has set those members.
 */
export default defineMutant({
  description:
    'Error bodies share one module-level defaults object: code, param and path left by an earlier error (of any request) leak into later errors that set none, e.g. a missing record 404 with param "limit".',
  breaks: { 'ERR-5': 'fail', 'RATE-3': 'fail', 'AUTH-8': 'warn', 'ERR-9': 'warn' },
  collateral: ['SUB-3', 'KEY-6', 'RATE-7', 'ERR-7'],
  provokedBy: ['PAG', 'SUB'],
  modify: (reference) => {
    const defaults: Record<'code' | 'param' | 'path', unknown> = { code: null, param: null, path: null };
    reference.app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
      if (!String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
      let body: { error?: Record<string, unknown> };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      const error = body.error;
      // The 401 for a missing or malformed header is written by hand, not by the helper.
      if (typeof error !== 'object' || error === null || !('code' in error)) return payload;
      for (const member of ['code', 'param', 'path'] as const) {
        if (!(member in error)) continue; // the 429 deletes its path after the helper
        if (error[member] !== null && error[member] !== undefined) defaults[member] = error[member];
        else error[member] = defaults[member];
      }
      return JSON.stringify(body);
    });
  },
});
