import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { sendError } from '../../../reference/errors.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the service sits behind an Amazon API Gateway REST API on a
 * custom domain. The gateway's resource tree is imported from the API's OpenAPI description: one
 * resource per path template (`/api/v1/records`, `/api/v1/records/{id}`, ...), each with an `ANY`
 * method proxied to the service, which authenticates and rate-limits as before. A request whose
 * path matches no resource never reaches the service: API Gateway answers it itself with its
 * MISSING_AUTHENTICATION_TOKEN gateway response, whatever the Authorization header says. Its
 * default (403 `{"message":"Missing Authentication Token"}`) confuses every client, so teams
 * customise it, as AWS documents (`put-gateway-response --response-type
 * MISSING_AUTHENTICATION_TOKEN --status-code 404` with a JSON template): here a 404 in the API's
 * own error envelope, with `x-amzn-ErrorType: MissingAuthenticationTokenException`. Such an
 * answer is made before any integration runs, so it carries no X-RateLimit-* headers and spends no
 * one's rate budget. Every response carries API Gateway's `x-amzn-RequestId` and `x-amz-apigw-id`.
 * An nginx edge with one `location` per documented path and a catch-all
 * `location / { default_type application/json; return 404 '...'; }` answers unrouted paths the
 * same way.
 *
 * Why it is conformant:
 * - Every endpoint of the document, every path of the profile (retrievals, catalogues, key list and
 *   key path, submission list) and the profile's forbidden probe has a resource at the gateway,
 *   for every method. Every request to them reaches the service unchanged: authentication
 *   (Authentication 1, 7: 401 without or with a bad key), rate limiting (Limits), 405 for a method
 *   a path does not support, all as the reference. The paths are matched as sent, with any `{id}`
 *   standing for one non-empty segment, so a retrieval of a missing id is still the service's
 *   404 `not_found_error` with code and param null (Errors, rule 5).
 * - Only a path that names no endpoint at all (`/api/v1/nothing`, `/api/v2/records`, a trailing
 *   slash) is answered at the gateway: 404 `not_found_error`, code null, param null, path null,
 *   JSON (GEN-1, ERR-1, ERR-2, ERR-8, GEN-2). The document's Authentication section says "all
 *   endpoints require the Authorization header": it orders nothing about paths that are no
 *   endpoint, and whether such a request is told "no such path" or "no key" first is not stated
 *   (RFC 9110 15.5.5: 404 says the server has no representation for the target). A request with no
 *   header to a documented endpoint still gets 401.
 * - Limits: the ceilings apply to the API's requests, which all reach the service and are all
 *   counted as in the reference (100 per key, 20 per IP without a header). A request to no
 *   endpoint is not counted by the gateway, so it is never throttled: it spends no budget, which
 *   no clause forbids (RATE-7 only forbids counting requests made with a valid key, and a 429
 *   that comes early). Its 404 carries no X-RateLimit-* headers: the headers are sent "generally"
 *   (RATE-1, a SHOULD), and an answer that counted nothing has no window to report.
 * - `x-amzn-RequestId`, `x-amz-apigw-id` and `x-amzn-ErrorType` are extension fields (RFC 9110 5.1);
 *   they are random or fixed, never an echo of a key.
 */

/** The path the gateway's catch-all is served at inside this process (never a documented path). */
const UNROUTED = '/__apigw/missing-authentication-token';

function pattern(template: string): RegExp {
  const parts = template.split('{id}').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/]+')}$`);
}

export default defineVariant({
  description:
    'behind an API Gateway REST API with one resource per documented path (ANY method, proxied): a path that matches none is answered by the gateway, before authentication and rate limiting, with a customised MISSING_AUTHENTICATION_TOKEN response: 404 not_found_error in the envelope, without X-RateLimit-* headers',
  openPoint: 'http-transport',
  atRisk: ['ERR-8', 'GEN-2', 'GEN-1', 'ERR-1', 'AUTH-1', 'AUTH-2', 'AUTH-7', 'RATE-1', 'RATE-7', 'RATE-8', 'KEY-5'],
  modify: ({ app, state }) => {
    const { paths, forbiddenProbe } = state.profile;
    const templates = [
      '/api/v1/workspaces',
      '/api/v1/governance_models',
      '/api/v1/records',
      '/api/v1/submissions',
      '/api/v1/api_keys',
      ...Object.values(paths).filter((path): path is string => typeof path === 'string'),
      ...(forbiddenProbe ? [forbiddenProbe.path] : []),
    ];
    const resources = templates.map(pattern);
    /** The path each request to no resource was sent with, for the gateway's message. */
    const unrouted = new WeakMap<IncomingMessage, string>();

    // The gateway: before the service (its routing, authentication and rate limiting) sees anything.
    app.server.prependListener('request', (req: IncomingMessage) => {
      const url = req.url ?? '/';
      const path = url.split('?')[0]!;
      if (resources.some((resource) => resource.test(path))) return;
      unrouted.set(req, path);
      req.url = UNROUTED;
    });
    // The gateway answers from the request line and headers: a body is neither read nor judged.
    void app.register(async (gateway) => {
      gateway.removeAllContentTypeParsers();
      gateway.addContentTypeParser('*', (_req, _payload, done) => done(null));
      gateway.all(UNROUTED, async (req, reply) => {
        reply.header('x-amzn-errortype', 'MissingAuthenticationTokenException');
        return sendError(reply, 404, 'not_found_error', `No endpoint ${unrouted.get(req.raw) ?? req.url.split('?')[0]!}.`);
      });
    });
    app.addHook('onSend', async (_req, reply, payload) => {
      reply.header('x-amzn-requestid', randomUUID());
      reply.header('x-amz-apigw-id', `${randomBytes(12).toString('base64').slice(0, 15)}=`);
      return payload;
    });
  },
});
