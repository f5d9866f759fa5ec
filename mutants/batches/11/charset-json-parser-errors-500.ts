import { defineMutant } from '../../mutant.js';

/*
 * How this happens: a customer's client sent `application/json; charset=ISO-8859-1` and accented
 * names arrived garbled, so the vendor added a body parser for JSON that carries a charset
 * parameter: it decodes the bytes in the declared charset and then calls `JSON.parse`. Plain
 * `application/json` still goes through the framework's parser, which tags a syntax error as a
 * 400. The new parser passes `JSON.parse`'s SyntaxError (or the decoder's RangeError for an unknown
 * charset) on untagged, so the generic error handler turns it into a 500 `api_error`.
 */
export default defineMutant({
  description:
    'A malformed JSON body (or an unknown charset) whose Content-Type carries a charset parameter gets 500 api_error instead of a 4xx; without the parameter it is still 400.',
  breaks: { 'GEN-4': 'warn', 'GEN-3': 'warn' },
  modify: (reference) => {
    const { app } = reference;
    const framework = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
      const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1];
      if (charset === undefined) return framework(req, body.toString('utf8'), done);
      try {
        done(null, JSON.parse(new TextDecoder(charset).decode(body as Buffer)));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
  },
});
