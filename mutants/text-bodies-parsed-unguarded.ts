import { defineMutant } from './mutant.js';

/**
 * A parser for `text/plain` added for old clients that send JSON labelled as text: it hands the
 * text to JSON.parse and lets the parser's exception through, which the framework answers as an
 * unexpected fault. A body's label × a malformed body: the same body labelled `application/json`
 * is still a 400.
 */
export default defineMutant({
  description: 'a malformed JSON body labelled text/plain is answered 500 api_error, as a parser added for text bodies lets JSON.parse throw',
  breaks: { 'GEN-3': 'warn', 'GEN-4': 'warn' },
  modify: ({ app }) => {
    app.removeContentTypeParser('text/plain');
    app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_req, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch (error) {
        // No status of its own: the error handler answers 500.
        done(error as Error, undefined);
      }
    });
  },
});
