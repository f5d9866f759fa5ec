import type { IncomingMessage } from 'node:http';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the Authorization header is read grammar first, the way Spring
 * Security's resource server reads it. Its DefaultBearerTokenResolver matches the header against
 * RFC 6750's credentials rule, `^Bearer (?<token>[a-zA-Z0-9-._~+/]+=*)$` (case-insensitive), and
 * throws "Bearer token is malformed" (an invalid_token error, 401) before any
 * AuthenticationProvider, and so before any key lookup, sees a token outside that alphabet. Here the
 * same check runs first on every request under /api/, with RFC 6750's own `1*SP` between the
 * scheme and the token (Spring's pattern has one space; the reference already allows several, and
 * so does this). What it catches, in practice, is keys pasted with a typographic quote
 * (`sk_...”`), a trailing comma or semicolon from a config file, a zero-width space from a chat
 * window or a wiki (its UTF-8 bytes arrive as obs-text), a `%0A` left by URL-encoding, or padding
 * `=` in the middle: such a client is told that its header is malformed, not that its key is
 * unknown, which is the answer that points at the fault. A malformed header gets the reference's
 * own short 401 body for a malformed header (`{"error": {"type": "authentication_error",
 * "message": ...}}`), as it already does for another scheme, `Bearer` alone, extra parts or a
 * token without the prefix. A token inside the alphabet is looked up exactly as before.
 *
 * Why it is conformant:
 * - RFC 6750 2.1 defines the Bearer credentials as `"Bearer" 1*SP b64token`, with
 *   `b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`, the same alphabet
 *   as RFC 9110 11.2's token68 (RFC 9110 11.4: `credentials = auth-scheme [ 1*SP ( token68 /
 *   #auth-param ) ]`). A header whose token has any other character is not Bearer credentials at
 *   all: it is an "incorrectly formatted" key in the words of Authentication 7 and a "malformed
 *   Authorization header" in those of Authentication 9, which both allow exactly what is sent:
 *   401, type `authentication_error`, in the shape the document leaves open for a malformed header
 *   (AUTH-2, AUTH-7; ERR-1 exempts that 401 from the envelope; ERR-2: 401 with
 *   `authentication_error`). This is the reading the variant takes, of the two the catalogue's
 *   AUTH-3 leaves room for: AUTH-3 speaks of "a well-formed key that is unknown", and a token
 *   outside RFC 6750's grammar is not well-formed. The other reading (any token after the prefix
 *   is a key, merely unknown) is the reference's.
 * - Every key the API issues is the prefix `sk_` and base64url characters (reference/store.ts),
 *   all inside b64token, so no live key is ever refused by the grammar: KEY-1, KEY-2 and every
 *   authenticated clause are untouched. A real key with a character changed to another letter or
 *   digit, its letters' case changed, or characters of the key alphabet added or cut, is still
 *   well-formed: it is looked up and answered 401 in the full envelope with code null and param
 *   null (AUTH-3, AUTH-8, ERR-1), as in the reference. A revoked key is well-formed: KEY-5 as
 *   before.
 * - What RFC 9110 leaves to the recipient is kept: the scheme is matched case-insensitively (11.1),
 *   one or more spaces separate it from the token (11.4), and the header's leading and trailing
 *   whitespace is not part of its value (5.5). AUTH-2's list (another scheme, `Bearer` with no
 *   token, no prefix, extra parts) is answered as before.
 * - A request with a header carries no rate budget of its own in the reference until its key is
 *   known, and still does not: no request is counted, nothing is throttled (Limits, RATE-7). The
 *   answer is JSON (GEN-1) and echoes nothing of the token (KEY-4).
 */

/** What the reference takes for "Bearer <token>" (reference/auth.ts). */
const CANDIDATE = /^bearer +(\S+)$/i;
/** RFC 6750 2.1 b64token (RFC 9110 11.2 token68). */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
/** Methods the service routes; a request with another one is left to the reference as it is. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Where a request with a malformed bearer token is answered inside this process (never a documented path). */
const MALFORMED = '/__bearer/malformed-token';

export default defineVariant({
  description:
    'the Authorization header is parsed by RFC 6750 2.1 first (Spring Security DefaultBearerTokenResolver style, with 1*SP): a bearer token with a character outside b64token (quote, comma, %, non-ASCII, = before the end) is a malformed header, answered 401 authentication_error in the short malformed-header shape before any key lookup',
  openPoint: 'auth-401-shape',
  atRisk: ['AUTH-2', 'AUTH-3', 'AUTH-7', 'AUTH-8', 'ERR-1', 'ERR-2'],
  modify: ({ app }) => {
    // The parser: before routing, authentication and rate limiting see anything.
    app.server.prependListener('request', (req: IncomingMessage) => {
      const url = req.url ?? '/';
      if (!url.startsWith('/api/') || !METHODS.has(req.method ?? '')) return;
      const header = req.headers.authorization;
      if (header === undefined) return;
      const match = CANDIDATE.exec(header);
      if (!match || B64TOKEN.test(match[1]!)) return;
      req.url = MALFORMED;
    });
    // Answered from the header alone: a body is neither read nor judged.
    void app.register(async (parser) => {
      parser.removeAllContentTypeParsers();
      parser.addContentTypeParser('*', (_req, _payload, done) => done(null));
      parser.all(MALFORMED, async (_req, reply) =>
        reply.code(401).send({
          error: {
            type: 'authentication_error',
            message: 'The Authorization header is malformed: a bearer token has only letters, digits and - . _ ~ + /, with any = at its end (RFC 6750).',
          },
        }),
      );
    });
  },
});
