import { randomBytes } from 'node:crypto';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the API runs as a Kubernetes Deployment of four pods behind an
 * L7 ingress (an AWS ALB through the AWS Load Balancer Controller, round-robin per request), and a
 * release is rolled out with `RollingUpdate` (`maxSurge: 1`, `maxUnavailable: 0`): one pod of the
 * new ReplicaSet becomes ready, an old one is terminated, and so on. For the length of the rollout,
 * and much longer where a canary (Argo Rollouts, Flagger) holds a share of the pods on the new
 * build, both builds answer requests side by side, and a client sees them interleaved. The new
 * build moved its error texts into a message catalogue (reworded, as every i18n migration does)
 * and adds the request's id to every error object (`request_id`, so that support can find the
 * log line; Stripe's errors carry `request_log_url`, GitHub's `documentation_url`). Every response
 * of both builds carries the ingress's `X-Request-Id` and the build's `X-App-Version`. Here one
 * pod of four runs the new build from the start, and one more is replaced after every 200
 * responses, until all four run it.
 *
 * Why it is conformant:
 * - Errors: `message` is "human-readable text; its wording may change between versions, so do not
 *   branch on it", and Versioning 2: "Message texts may change between versions; codes and types
 *   are the stable interface". The document's "versions" can be read as API versions (v1, v2) or as
 *   releases; under either reading nothing fixes a message's words within v1: the table asks only
 *   for a string, and a client is told to branch on status, `type` and `code` (Errors, rule 4),
 *   which both builds send identically for every request (ERR-1, ERR-2, ERR-4, ERR-5, ERR-7, ERR-9,
 *   AUTH-3, AUTH-8: code and param null where the reference has them null). The one message the
 *   document constrains, the 429's, states the wait in seconds in both builds, the same number as
 *   `Retry-After` and the only number in the text (Limits; RATE-3).
 * - `request_id` is a member beyond those listed (open point `extra-members`): the error table lists
 *   the members an error has and excludes none (ERR-1 checks the listed ones; a 429 may still omit
 *   `path`). The 401 for a missing or malformed header keeps `type: "authentication_error"` (AUTH-7);
 *   its shape is not shown, and the new build adds the same member there.
 * - Bodies of successful responses are the same in both builds; status codes, rate-limit headers
 *   and counting are unchanged (the pods share the store). `X-Request-Id` is random per response,
 *   and no message echoes a request's input beyond a parameter's name, so no response carries a
 *   part of a key's secret (KEY-4).
 */

const PODS = 4;
/** Responses between the replacements of one old pod by a new one. */
const REPLACE_EVERY = 200;
const OLD_BUILD = '2025.11.1+b41c9e2';
const NEW_BUILD = '2025.11.2+7f03d5a';

interface ErrorObject {
  type: string;
  code?: string | null;
  message: string;
  param?: string | null;
  request_id?: string;
}

const isErrorBody = (body: unknown): body is { error: ErrorObject } => {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as ErrorObject).type === 'string' && typeof (error as ErrorObject).message === 'string';
};

/** The new build's message catalogue; a message it has no entry for is kept. */
function reworded(error: ErrorObject, retryAfter: string | undefined): string {
  const param = typeof error.param === 'string' ? error.param : null;
  switch (error.type) {
    case 'authentication_error':
      // The 401 for a missing or malformed header has no code member; that for a bad key has code null.
      return error.code === undefined
        ? 'Authenticate with the header "Authorization: Bearer" followed by your API key.'
        : 'This API key is not valid: it is unknown or has been revoked.';
    case 'authorization_error':
      return 'This API key is not allowed to make this request.';
    case 'not_found_error':
      return 'The requested resource does not exist or is not visible to this API key.';
    case 'rate_limit_error':
      return retryAfter !== undefined && /^\d+$/.test(retryAfter) ? `Rate limit reached. Try again in ${retryAfter} seconds.` : error.message;
    case 'invalid_request_error':
      if (error.code === 'missing_param' && param) return `The parameter '${param}' is required.`;
      if (param) return `The parameter '${param}' is not valid: ${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}`;
      return error.message;
    case 'api_error':
      return 'Something went wrong on our side. Please retry later.';
    default:
      return error.message;
  }
}

export default defineVariant({
  description:
    'a rolling update in progress: requests are spread over four pods, some on the old build and some on the new one, whose error messages are reworded (429: the same wait in seconds) and whose error objects carry an extra request_id; X-Request-Id and X-App-Version on every response',
  openPoint: 'extra-members',
  atRisk: ['ERR-1', 'ERR-2', 'ERR-5', 'ERR-7', 'ERR-9', 'AUTH-3', 'AUTH-7', 'AUTH-8', 'RATE-3', 'GEN-1', 'KEY-4'],
  rateLimits: true,
  modify: ({ app }) => {
    let served = 0;
    app.addHook('onSend', async (_req, reply, payload) => {
      const n = served++;
      const replaced = Math.min(PODS, 1 + Math.floor(n / REPLACE_EVERY));
      // Round-robin over the pods: pods below `replaced` run the new build.
      const fresh = n % PODS < replaced;
      const requestId = randomBytes(16).toString('hex');
      reply.header('x-request-id', requestId);
      reply.header('x-app-version', fresh ? NEW_BUILD : OLD_BUILD);
      if (!fresh || reply.statusCode < 400 || typeof payload !== 'string') return payload;
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (!isErrorBody(body)) return payload;
      const retryAfter = reply.getHeader('retry-after');
      body.error.message = reworded(body.error, retryAfter === undefined ? undefined : String(retryAfter));
      body.error.request_id = requestId;
      return JSON.stringify(body);
    });
  },
});
