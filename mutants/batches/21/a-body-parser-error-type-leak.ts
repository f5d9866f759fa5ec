import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the service is Express with `express.json()`. Its error middleware builds the
 * envelope as `type: err.type ?? typeForStatus(status)`, because the team's own ApiError class
 * carries the API's type in `.type`. But body-parser's http-errors carry a `.type` of their own,
 * `entity.parse.failed` for a body that is not JSON and `entity.too.large` past the size limit, and
 * it leaks into `error.type`. Status, code, message and envelope are all as usual; an empty body is
 * read as `{}` by body-parser and never reaches this path.
 */
export default defineMutant({
  description:
    'A request body that is not valid JSON (or is too large) gets the right status and envelope, but error.type is body-parser\'s "entity.parse.failed" / "entity.too.large" instead of invalid_request_error.',
  breaks: { 'ERR-2': 'fail' },
  collateral: ['GEN-4'],
  provokedBy: ['GEN'],
  modify: (reference) => {
    const leaked = new Map<string, string>([
      ['invalid_json', 'entity.parse.failed'],
      ['body_too_large', 'entity.too.large'],
    ]);
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if ((reply.statusCode !== 400 && reply.statusCode !== 413) || typeof payload !== 'string') return payload;
      if (req.headers['content-length'] === '0') return payload;
      let body: { error?: { type?: unknown; code?: unknown } };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      const error = body.error;
      const type = typeof error?.code === 'string' ? leaked.get(error.code) : undefined;
      if (!error || !type) return payload;
      error.type = type;
      return JSON.stringify(body);
    });
  },
});
