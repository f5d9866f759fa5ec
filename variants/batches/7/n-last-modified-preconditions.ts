import { errorBody } from '../../../reference/errors.js';
import { route } from '../../../reference/routes/list.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: a PHP (or any CGI/FastCGI) application behind Apache httpd 2.4,
 * the classic LAMP deployment. The application writes `Last-Modified` (PHP: `header('Last-Modified:
 * ...')` from the newest `updated_at` of what it lists) and no ETag; Apache reads the script's
 * headers in `ap_scan_script_header_err_*` (server/util_script.c) and, for a GET whose script set no
 * `Status`, calls `ap_meets_conditions(r)` (modules/http/http_protocol.c), which evaluates the
 * request's preconditions against the script's validators and answers 304 or 412 itself, dropping
 * the script's body: `If-Match` with no matching strong ETag (and with no ETag at all, anything
 * but `*`) is 412, `If-Unmodified-Since` earlier than Last-Modified is 412, `If-None-Match: *` is a
 * match (304 to a GET), `If-Modified-Since` no earlier than Last-Modified and not later than the
 * request's time is 304. HEAD is GET for Apache (M_GET). `Cache-Control: private, no-cache` and
 * `Vary: Authorization` come from the application (`no-cache, private` is what Symfony's
 * HttpFoundation, and so Laravel, sends when the application set no cache header).
 * Here: lists and retrievals of the catalogue (workspaces, governance models, records, taxonomies,
 * fields, picklists), whose data has not changed since the server started, and the submission list,
 * changed by each submission created, carry Last-Modified. The key list does not: it shows the
 * last use of the very key that asks, so it changes with every request and has no validator.
 * Two refinements over Apache, both RFC 9110's: Last-Modified is sent only once it is at least a
 * second old (8.8.2.2: a date in the same second as the response may hide a later change in that
 * second, so it would be a weak validator at best; Apache weakens its ETag the same way), and
 * without a Last-Modified `If-Unmodified-Since` and `If-Modified-Since` are ignored (13.1.4, 13.1.3),
 * where Apache compares them with the present time.
 *
 * Why it is conformant:
 * - Without conditional headers every answer is the reference's, plus three headers: Last-Modified,
 *   Cache-Control and Vary. Status, body, X-RateLimit-* and every error are unchanged: GEN-*, RES-*,
 *   PAG-*, AUTH-*, KEY-*, SUB-*, ERR-*, RATE-* see the reference (the document says nothing of
 *   validators: open point `http-transport`).
 * - Preconditions are evaluated only where RFC 9110 13.2.1 lets them apply: after authentication,
 *   rate limiting and the request's own checks, on a response that would have been 200 (a 401,
 *   404, 422 or 429 is answered as such, whatever the conditional headers), in the order of 13.2.2:
 *   If-Match, If-Unmodified-Since, If-None-Match, If-Modified-Since (the last ignored when
 *   If-None-Match is present, 13.1.3). The request is counted and the key's last use written as for
 *   any request (Limits, KEY-7).
 * - 304 (RFC 9110 15.4.5) has no content, so no Content-Type (GEN-1 exempts 204 and HEAD for having
 *   no body; a 304 has none for the same reason, 6.4.1), and carries what the 200 would have: Date,
 *   Cache-Control, Vary, Last-Modified, and the X-RateLimit-* of this request (RATE-1, RATE-2).
 * - 412 (15.5.13) is JSON in the error envelope with type `invalid_request_error` (a type the
 *   document lists; ERR-2 ties types to the statuses of its table, and 412 is not one of them),
 *   code `precondition_failed`, param and path null (ERR-1). No read-only endpoint answers
 *   `conflict_error`, `account_locked` or `plan_limit_exceeded` (ERR-6).
 * - A 304 never hides a change: Last-Modified is at least a second older than the response and every
 *   later change of the data is dated after it, so `If-Modified-Since` equal to it is answered 304
 *   only while nothing changed (8.8.2.2, 13.1.3). The validator is the account's data: one key's
 *   validator tells nothing of another account's (AUTH-6).
 */

type Outcome = 'pass' | 'not-modified' | 'failed';

const MONTHS = 'Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec';
const IMF_FIXDATE = new RegExp(`^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} (${MONTHS}) \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$`);
const RFC850_DATE = new RegExp(`^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-(${MONTHS})-\\d{2} \\d{2}:\\d{2}:\\d{2} GMT$`);
const ASCTIME_DATE = new RegExp(`^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (${MONTHS}) ( \\d|\\d{2}) \\d{2}:\\d{2}:\\d{2} \\d{4}$`);

/** An HTTP-date (RFC 9110 5.6.7: the three formats a recipient must accept), in ms; null when it is none. */
function httpDate(value: string | string[] | undefined): number | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  let ms = Number.NaN;
  if (IMF_FIXDATE.test(text) || RFC850_DATE.test(text)) ms = Date.parse(text);
  else if (ASCTIME_DATE.test(text)) ms = Date.parse(`${text.replace(/ +/g, ' ')} GMT`);
  return Number.isFinite(ms) ? ms : null;
}

const header = (value: string | string[] | undefined): string | null => (value === undefined ? null : Array.isArray(value) ? value.join(', ') : value);

export default defineVariant({
  description:
    'Apache httpd in front of a FastCGI app: GET lists and retrievals of the catalogue and the submission list carry Last-Modified (once at least a second old; no ETag), Cache-Control: private, no-cache and Vary: Authorization, and Apache evaluates preconditions on the 200 as RFC 9110 13.2.2 orders them: 304 to If-Modified-Since or If-None-Match: *, 412 (invalid_request_error, precondition_failed) to a failed If-Match or If-Unmodified-Since',
  openPoint: 'http-transport',
  atRisk: ['GEN-1', 'GEN-5', 'ERR-1', 'ERR-2', 'RES-4', 'RES-7', 'PAG-1', 'SUB-4', 'RATE-1', 'KEY-7'],
  modify: ({ app, state }) => {
    const { paths } = state.profile;
    // The catalogue is the seeded data: unchanged since the server started.
    const seededAtMs = state.now();
    const catalogue = new Set(
      [
        '/api/v1/workspaces',
        '/api/v1/governance_models',
        '/api/v1/records',
        paths.workspace,
        paths.governanceModel,
        paths.record,
        paths.taxonomies,
        paths.taxonomy,
        paths.fields,
        paths.field,
        paths.picklists,
        paths.picklist,
      ]
        .filter((path): path is string => typeof path === 'string')
        .map(route),
    );
    const submissionList = paths.submissionList ? route(paths.submissionList) : null;

    app.addHook('onSend', async (req, reply, payload) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || reply.statusCode !== 200 || !req.account) return payload;
      const pattern = req.routeOptions.url;
      if (pattern === undefined) return payload;
      let modifiedMs: number;
      if (catalogue.has(pattern)) modifiedMs = seededAtMs;
      else if (pattern === submissionList) {
        modifiedMs = req.account.submissions.reduce((latest, s) => Math.max(latest, Date.parse(s.created_at) || latest), seededAtMs);
      } else return payload;

      const nowMs = state.now();
      // Whole seconds, and only once the second of the last change is over (RFC 9110 8.8.2.2).
      const lastModifiedMs = Math.floor(nowMs / 1000) > Math.floor(modifiedMs / 1000) ? Math.floor(modifiedMs / 1000) * 1000 : null;
      if (lastModifiedMs !== null) reply.header('last-modified', new Date(lastModifiedMs).toUTCString());
      reply.header('cache-control', 'private, no-cache');
      reply.header('vary', 'Authorization');

      const outcome = evaluate();
      if (outcome === 'pass') return payload;
      if (outcome === 'not-modified') {
        reply.code(304);
        reply.removeHeader('content-type');
        // GET: no content. HEAD: Fastify's HEAD handling drops the text and states its length, the 200's.
        return req.method === 'HEAD' ? payload : null;
      }
      reply.code(412);
      reply.header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify(
        errorBody('invalid_request_error', 'A precondition of the request (If-Match or If-Unmodified-Since) is not met.', { code: 'precondition_failed' }),
      );

      /** RFC 9110 13.2.2, with no entity tag and the Last-Modified above (or none). */
      function evaluate(): Outcome {
        const ifMatch = header(req.headers['if-match']);
        if (ifMatch !== null) {
          // "*" matches any current representation; a listed tag never matches, there is no ETag.
          if (ifMatch.trim() !== '*') return 'failed';
        } else {
          const since = httpDate(req.headers['if-unmodified-since']);
          if (since !== null && lastModifiedMs !== null && lastModifiedMs > since) return 'failed';
        }
        const ifNoneMatch = header(req.headers['if-none-match']);
        if (ifNoneMatch !== null) return ifNoneMatch.trim() === '*' ? 'not-modified' : 'pass';
        const modifiedSince = httpDate(req.headers['if-modified-since']);
        // A date later than the server's present time is no validator (Apache: ims <= request time).
        if (modifiedSince !== null && lastModifiedMs !== null && modifiedSince <= nowMs && lastModifiedMs <= modifiedSince) return 'not-modified';
        return 'pass';
      }
    });
  },
});
