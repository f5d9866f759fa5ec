import { defineMutant } from '../../mutant.js';

/*
 * How this happens: clients that POST with `Content-Type: application/json` and an empty body got
 * a 400 from the framework's built-in parser, so a developer replaced it with a "lenient" parser:
 * `body === '' ? {} : JSON.parse(body)`, passing any exception on to `done(err)`. The framework's
 * own parser raises errors that carry `statusCode: 400`; a bare `SyntaxError` from `JSON.parse`
 * carries none, and the global error handler treats an error without a status as an unexpected
 * fault. Malformed JSON now yields 500 `api_error` instead of a 4xx.
 */
export default defineMutant({
  description: 'A request body that is not valid JSON (truncated, trailing comma, plain text) is answered 500 api_error instead of a 4xx client error.',
  breaks: { 'GEN-3': 'warn', 'GEN-4': 'warn' },
  collateral: [],
  modify: (reference) => {
    const { app } = reference;
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      try {
        done(null, text.trim() === '' ? {} : JSON.parse(text));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
  },
});
