import type { FastifyRequest } from 'fastify';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the API runs as a Spring Security OAuth 2.0 resource server
 * (`http.oauth2ResourceServer(...)`) whose AuthenticationManager checks API keys, with the stock
 * BearerTokenAuthenticationEntryPoint and BearerTokenAccessDeniedHandler given a realm
 * (`setRealmName("api")`), and a JSON body written by the service as before. Those two classes
 * write RFC 6750's challenges: a request that carries no bearer credentials at all (no header, or
 * another scheme, which Spring's resolver ignores and which leaves the request anonymous) gets
 * `WWW-Authenticate: Bearer realm="api"` and nothing more; a bearer credential that fails (malformed,
 * unknown, revoked) gets `Bearer realm="api", error="invalid_token", error_description="...",
 * error_uri="..."`; an authenticated request refused for lack of privilege gets 403 with
 * `Bearer realm="api", error="insufficient_scope", ...`. Spring Security's default header writers
 * add, to every response, `Cache-Control: no-cache, no-store, max-age=0, must-revalidate`,
 * `Pragma: no-cache`, `Expires: 0`, `X-Content-Type-Options: nosniff`, `X-Frame-Options: DENY` and
 * `X-XSS-Protection: 0`. ASP.NET Core's JwtBearer handler writes the same kind of challenge
 * (`Bearer error="invalid_token", error_description="..."`).
 *
 * Why it is conformant:
 * - RFC 9110 15.5.2: a server generating a 401 MUST send a WWW-Authenticate header field with at
 *   least one challenge (11.6.1); the reference sends none, this variant sends one on every 401.
 *   Each is a valid challenge (RFC 9110 11.3, `auth-scheme [ 1*SP ( token68 / #auth-param ) ]`)
 *   in the scheme the document names (Authentication 1; RFC 6750 3: all its challenges use
 *   `Bearer`), with each attribute once and quoted, and error_description and error_uri within
 *   the characters RFC 6750 3 allows.
 * - RFC 6750 3.1 is followed where it speaks and the document does not contradict it: a request
 *   "that lacks any authentication information (e.g. ... attempted using an unsupported
 *   authentication method)" gets no error code; a malformed, unknown or revoked token gets
 *   `invalid_token` ("expired, revoked, malformed, or invalid for other reasons"), whose status
 *   RFC 6750 puts at 401, the document's status (Authentication 7). `invalid_request`, whose
 *   status RFC 6750 puts at 400, is never used: a malformed header stays 401 (AUTH-2).
 * - The statuses and bodies are the reference's, untouched: 401 `authentication_error` without,
 *   or with a malformed, unknown or revoked key, in the same shapes (AUTH-1, AUTH-2, AUTH-3,
 *   AUTH-7, AUTH-8, ERR-1, ERR-2, KEY-5); the forbidden probe's 403 `authorization_error`
 *   (AUTH-4), to which RFC 9110 11.6.1 allows a WWW-Authenticate ("a server MAY generate a
 *   WWW-Authenticate header field in other response messages") and RFC 6750 3.1 gives
 *   `insufficient_scope` with 403. Rate limiting is unchanged: the headers of Limits are sent as
 *   before, a 429 gets no challenge.
 * - The other headers are extension and caching fields (RFC 9110 5.1; RFC 9111 5.2.2.5 no-store,
 *   5.3: `Expires: 0` is a time in the past); the document says nothing on caching, and nothing
 *   it states depends on a response being stored.
 * - No header echoes the token or any part of it: the descriptions are fixed texts (KEY-4).
 */

const REALM = 'api';
const ERROR_URI = 'https://www.rfc-editor.org/rfc/rfc6750#section-3.1';

function challenge(parameters: Record<string, string>): string {
  const list = Object.entries({ realm: REALM, ...parameters }).map(([name, value]) => `${name}="${value}"`);
  return `Bearer ${list.join(', ')}`;
}

/** The challenge for a 401: RFC 6750 3.1, by what the request's Authorization header holds. */
function unauthorized(req: FastifyRequest, keyPrefix: string): string {
  const header = req.headers.authorization;
  // No credentials, or another scheme's: the client may not know that a key is needed (no error code).
  if (header === undefined || !/^bearer(?:[ \t]|$)/i.test(header)) return challenge({});
  const token = /^bearer +(\S+)$/i.exec(header)?.[1];
  const wellFormed = token !== undefined && token.startsWith(keyPrefix);
  return challenge({
    error: 'invalid_token',
    error_description: wellFormed ? 'The API key is invalid or has been revoked' : 'The bearer token is malformed',
    error_uri: ERROR_URI,
  });
}

export default defineVariant({
  description:
    'Spring Security resource server answers: every 401 carries an RFC 6750 challenge (Bearer realm="api" without bearer credentials; error="invalid_token" with error_description for a malformed, unknown or revoked key), the 403 carries error="insufficient_scope", and every response carries Spring Security\'s default no-store and hardening headers',
  openPoint: 'http-transport',
  atRisk: ['AUTH-1', 'AUTH-2', 'AUTH-3', 'AUTH-4', 'AUTH-7', 'KEY-4', 'KEY-5'],
  modify: ({ app, state }) => {
    const keyPrefix = state.store.keyPrefix;
    app.addHook('onSend', async (req, reply, payload) => {
      // Spring Security's default header writers (HeadersConfigurer), on every response.
      reply.header('cache-control', 'no-cache, no-store, max-age=0, must-revalidate');
      reply.header('pragma', 'no-cache');
      reply.header('expires', '0');
      reply.header('x-content-type-options', 'nosniff');
      reply.header('x-frame-options', 'DENY');
      reply.header('x-xss-protection', '0');
      // BearerTokenAuthenticationEntryPoint and BearerTokenAccessDeniedHandler.
      if (reply.statusCode === 401) reply.header('www-authenticate', unauthorized(req, keyPrefix));
      if (reply.statusCode === 403) {
        reply.header(
          'www-authenticate',
          challenge({
            error: 'insufficient_scope',
            error_description: 'The request requires higher privileges than provided by the access token.',
            error_uri: ERROR_URI,
          }),
        );
      }
      return payload;
    });
  },
});
