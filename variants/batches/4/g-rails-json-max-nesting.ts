import { sendError } from '../../../reference/errors.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the service is a Rails API. Rails reads a JSON request body
 * with `ActiveSupport::JSON.decode`, which calls Ruby's `JSON.parse` with its defaults, and one of
 * those defaults is `max_nesting: 100`: a body whose arrays and objects nest more than 100 deep
 * raises `JSON::NestingError` ("nesting of 101 is too deep"), a `JSON::ParserError`, which Rails
 * turns into `ActionDispatch::Http::Parameters::ParseError`, answered 400 as a body it cannot
 * read. The team's `rescue_from` writes that 400 in the API's envelope, the same answer it gives
 * to a body that is not JSON (`invalid_request_error`, code `invalid_json`, param and path null).
 * Authentication and rate limiting run first, in a Rack middleware ahead of the app, so a request
 * without a valid key still gets its 401 (or 429) whatever its body. Other stacks set the same kind of
 * limit: Jackson 2.15+ (Spring Boot 3.1+) refuses nesting beyond 1000, System.Text.Json
 * (ASP.NET Core) beyond its MaxDepth, Go's encoding/json beyond 10000.
 *
 * Why it is conformant:
 * - RFC 8259 section 9: "An implementation may set limits on the maximum depth of nesting." The
 *   document leaves the service's input limits open (Limits: "Other limits (rows per submission,
 *   request body size): not shown"; Resources: the inner keys of `data` are "not fixed").
 * - The limit is a fact of this deployment, so the profile says it: `submissions.acceptsAnyData`
 *   is false (a row's `data` that nests more than 97 levels, itself included, is refused). SUB-5 then asks
 *   only that generated rows never get a 5xx: they get 201 up to the limit and 400 beyond it.
 *   SUB-1's row (the profile's sample, `{}` by default) is shallow and still gets 201.
 * - The refusal is 400 with the error envelope (Errors; GEN-4 asks a 4xx envelope for a body the
 *   service cannot take). Its status follows the reading that a body the parser refuses is not a
 *   "value [that] is invalid" (422: no parameter was ever read from it, so none can be named) but
 *   an unreadable request, like invalid JSON (RFC 9110 15.5.1: 400 for a request the server will
 *   not process because of something perceived to be a client error); the document's table does
 *   not list 400, whose type is not shown (Errors, rule 1), and `invalid_request_error` is one of
 *   its types (ERR-2). No 422 is added, so ERR-4 is untouched.
 * - Every body the document describes (`{name}`, `{workspace_id, taxonomy_id, rows: [{data}]}`)
 *   nests 3 levels plus the depth of a row's `data`, so every request the suite builds from the
 *   document, and every fault SUB-2 names (rows not an array, a row not an object, `data` not an
 *   object, ids of the wrong type), reaches the service's own validation and gets the reference's
 *   answer. Requests without a body (all reads) cannot meet the limit.
 */

/** Ruby's JSON.parse default: `max_nesting: 100` (depth 101 raises). */
const MAX_NESTING = 100;

/** How deep arrays and objects nest in a parsed JSON value (a scalar: 0; `{}`: 1). */
function nesting(value: unknown): number {
  let deepest = 0;
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    const here = depth + 1;
    if (here > deepest) deepest = here;
    if (here > MAX_NESTING) return here;
    for (const member of Array.isArray(current) ? current : Object.values(current)) stack.push({ value: member, depth: here });
  }
  return deepest;
}

export default defineVariant({
  description:
    "a Rails API: the JSON body parser keeps Ruby's JSON.parse default max_nesting of 100, so a body nested deeper is refused 400 invalid_request_error (code invalid_json) like any body it cannot read; the profile says not every data object is accepted",
  openPoint: 'input-lengths',
  atRisk: ['SUB-5', 'SUB-1', 'SUB-2', 'SUB-3', 'GEN-3', 'GEN-4', 'ERR-2', 'ERR-3', 'ERR-4', 'KEY-1', 'KEY-8'],
  profile: (reference) => ({ ...reference, submissions: { ...reference.submissions, acceptsAnyData: false } }),
  modify: ({ app }) => {
    // After authentication and rate limiting (onRequest) and after the body is parsed; only for a
    // route that exists (an unknown path is the router's 404 before Rails reads any parameter).
    app.addHook('preValidation', async (req, reply) => {
      if (req.body === undefined || req.routeOptions.url === undefined) return;
      const depth = nesting(req.body);
      if (depth <= MAX_NESTING) return;
      return sendError(reply, 400, 'invalid_request_error', `The request body cannot be read: nesting of ${depth} is too deep.`, {
        code: 'invalid_json',
      });
    });
  },
});
