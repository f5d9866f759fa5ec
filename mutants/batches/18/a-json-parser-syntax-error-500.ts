import { defineMutant } from '../../mutant.js';

/*
 * How this happens: to keep the raw request text (for request signing and for logging the exact
 * bytes a partner sent), the framework's JSON body parser is replaced with a hand-written one:
 * `addContentTypeParser('application/json', { parseAs: 'string' }, ...)` calling `JSON.parse`
 * and handing its exception to `done`. The framework's own parser marks a syntax error as a
 * client error (statusCode 400); the SyntaxError of `JSON.parse` carries no status, so the global
 * error handler, which defaults to 500, answers a malformed body (or an empty one) with
 * `api_error`. Every well-formed request is parsed exactly as before.
 */
export default defineMutant({
  description:
    'A request body that is not valid JSON (or is empty) under Content-Type: application/json is answered 500 api_error instead of a 4xx, because the custom JSON parser throws a SyntaxError without a status.',
  breaks: { 'GEN-3': 'warn', 'GEN-4': 'warn' },
  collateral: ['ERR-3', 'KEY-8', 'SUB-2'],
  modify: (reference) => {
    const { app } = reference;
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body as string);
      } catch (error) {
        // The missing line: `(error as { statusCode?: number }).statusCode = 400;`
        done(error as Error, undefined);
        return;
      }
      done(null, parsed);
    });
  },
});
