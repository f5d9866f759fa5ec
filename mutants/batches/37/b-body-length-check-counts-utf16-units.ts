import { defineMutant } from '../../mutant.js';

/*
 * How this happens: after an incident in which a proxy cut large submissions short (and the
 * truncated JSON happened to still parse, losing rows silently), the platform team adds a guard to
 * the JSON body parser: refuse a body whose length differs from its Content-Length. The guard
 * compares the decoded body string's .length, which counts UTF-16 code units, with Content-Length,
 * which counts bytes. For ASCII bodies the two agree, so every fixture in the test suite and every
 * curl command typed in the office passes; any body carrying an accented letter, a CJK character or
 * an emoji is a few units "short" and is refused. The guard throws a plain 400 error, which the
 * error handler reports like every other body failure: 400 invalid_json.
 */
export default defineMutant({
  description:
    'The JSON body parser refuses (400 invalid_json) any body whose string length in UTF-16 code units differs from its Content-Length in bytes, i.e. every body with a non-ASCII character.',
  breaks: { 'SUB-5': 'warn' },
  collateral: ['SUB-1', 'KEY-1', 'KEY-2'],
  modify: ({ app }) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, raw, done) => {
      const body = typeof raw === 'string' ? raw : raw.toString('utf8');
      const declared = req.headers['content-length'];
      if (declared !== undefined && body.length !== Number(declared)) {
        done(Object.assign(new Error('The request body was truncated in transit.'), { statusCode: 400 }), undefined);
        return;
      }
      parseJson(req, body, done);
    });
  },
});
