import { defineMutant } from '../../mutant.js';

/*
 * How this happens: a performance pass over the error helper replaced
 * `{ code: null, param: null, path: null, ...details }` with
 * `Object.assign(ERROR_DEFAULTS, details)` "to avoid an allocation per error". ERROR_DEFAULTS is a
 * module-level object, so whatever code, param or path one error sets stays set for every later
 * error that does not set it itself (a 404, a 401 for an unknown key, the param of a 429). The unit
 * tests build each error in a fresh process and all pass; in production the first error after a
 * deploy is right and the rest carry the leftovers of earlier ones.
 */
export default defineMutant({
  description:
    "Error details leak between requests: an error that does not set code, param or path itself (404, 401 for an unknown key, 429's param) carries the values the previous error set.",
  breaks: { 'ERR-5': 'fail', 'ERR-9': 'warn', 'AUTH-8': 'warn', 'RATE-3': 'fail' },
  collateral: [],
  provokedBy: ['PAG', 'SUB'],
  modify: (reference) => {
    /** The shared defaults object, as Object.assign leaves it after each error. */
    const defaults: { code: unknown; param: unknown; path: unknown } = { code: null, param: null, path: null };
    reference.app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      const error = (body as { error?: unknown } | null)?.error;
      // The 401 for a missing or malformed header is built apart, without code: untouched.
      if (typeof error !== 'object' || error === null || !('code' in error)) return payload;
      const fields = error as Record<string, unknown>;
      // What the call passed in `details`: none (404, 401, 500), only a code (405, 415, 429, 403),
      // or code, param and path together (400 missing_param, 422 invalid value, path possibly null).
      if (fields.code !== null) {
        defaults.code = fields.code;
        if (fields.param !== null) {
          defaults.param = fields.param;
          defaults.path = 'path' in fields ? fields.path : null;
        }
      }
      fields.code = defaults.code;
      fields.param = defaults.param;
      if ('path' in fields) fields.path = defaults.path;
      return JSON.stringify(body);
    });
  },
});
