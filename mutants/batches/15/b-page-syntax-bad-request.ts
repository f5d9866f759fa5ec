import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the list controller parses `page` and `limit` in two steps. The parse step
 * (`toInteger(raw)`) throws a `BadRequestError` when the text is not an integer, which the
 * exception mapper answers 400, "malformed syntax"; the bounds step throws a `ValidationError`,
 * answered 422, "well-formed but out of range". Both are written in the API's envelope with
 * `param` named, so the split looks deliberate in review, but the document makes every invalid
 * page or limit a 422. A negative number parses and still reaches the bounds check (422).
 */
export default defineMutant({
  description:
    'A page or limit that is not an integer at all (page=abc, limit=1.5, page=1e2, page=+5) is refused with 400 instead of 422; out-of-range integers are still 422.',
  breaks: { 'PAG-5': 'fail', 'PAG-10': 'warn' },
  collateral: ['ERR-7'],
  modify: (reference) => {
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode !== 422 || typeof payload !== 'string') return payload;
      let body: { error?: { param?: unknown } };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      const param = body.error?.param;
      if (param !== 'page' && param !== 'limit') return payload;
      const raw = (req.query as Record<string, unknown>)[param];
      // What `toInteger` accepts: an optional minus sign and digits; anything else is "malformed".
      if (typeof raw === 'string' && raw !== '' && !/^-?[0-9]+$/.test(raw)) reply.code(400);
      return payload;
    });
  },
});
