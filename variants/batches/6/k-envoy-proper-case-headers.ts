import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the service sits behind an Envoy front proxy (plain Envoy, or
 * the Envoy of Istio's ingress gateway, Contour, Emissary or Gloo). Envoy keeps header names in
 * lower case internally and, for HTTP/1.1 clients that were written against servers sending
 * "conventional" casing, is commonly configured with the stateless formatter
 * `http_protocol_options: { header_key_format: { proper_case_words: {} } }`: when it serialises a
 * response, the first letter and every letter that follows a character that is neither a letter
 * nor a digit is upper-cased. `x-ratelimit-remaining` goes on the wire as `X-Ratelimit-Remaining`,
 * `retry-after` as `Retry-After`, `content-type` as `Content-Type`. Envoy also treats `Connection`
 * and `Keep-Alive` as hop-by-hop: it drops the upstream's and, on an HTTP/1.1 connection it keeps
 * open, writes neither (persistence is HTTP/1.1's default); it writes `Connection: close` only when
 * it closes. It overwrites `Server` with `envoy` (server_header_transformation OVERWRITE, the
 * default) and adds `X-Envoy-Upstream-Service-Time`, the milliseconds the upstream took. Here the
 * idle connection is kept as long as the service already keeps it (72 s), longer than any common
 * client pool keeps an idle connection, so dropping the `Keep-Alive: timeout` hint races no one.
 *
 * Why it is conformant:
 * - RFC 9110 5.1: "Field names are case-insensitive". `X-Ratelimit-Limit`, `X-Ratelimit-Remaining`,
 *   `X-Ratelimit-Reset` and `Retry-After` are the fields the document names (Limits), with the same
 *   values as the reference's (RATE-1, RATE-2, RATE-3, RATE-4, RATE-8; Retry-After still on 429
 *   only, RATE-9); `Content-Type` still says `application/json; charset=utf-8` (GEN-5) and
 *   `Content-Length` still frames every body (GEN-1). The document's table writes the names in one
 *   casing; HTTP gives that casing no meaning.
 * - RFC 9112 9.3: "HTTP/1.1 defaults to the use of persistent connections"; a response on a
 *   connection that stays open needs no `Connection` field. `Keep-Alive` is no HTTP/1.1 field (it
 *   comes from RFC 2068 19.7.1), and RFC 9110 7.6.1 lists it among the hop-by-hop fields an
 *   intermediary removes before forwarding, as Envoy does. When the client asks to close
 *   (`Connection: close`), the response still says `Connection: close` and the connection is
 *   closed (RFC 9112 9.6).
 * - `Server` (RFC 9110 10.2.4) and `X-Envoy-Upstream-Service-Time` (an extension field, RFC 9110
 *   5.1) carry a product name and a number: nothing of a key (KEY-4), nothing the document
 *   forbids (What the service does; Limits list only the headers it requires).
 * - Status codes, bodies and every other behaviour are the reference's: no clause is touched but
 *   through a check that would look a header up by its exact case.
 */

/** Envoy's ProperCaseHeaderKeyFormatter: upper-case the first letter and every letter after a character that is neither a letter nor a digit. */
function properCase(name: string): string {
  let out = '';
  let capitalize = true;
  for (const char of name.toLowerCase()) {
    const letter = char >= 'a' && char <= 'z';
    out += capitalize && letter ? char.toUpperCase() : char;
    capitalize = !letter && !(char >= '0' && char <= '9');
  }
  return out;
}

type WriteHead = (this: ServerResponse, statusCode: number, ...rest: unknown[]) => ServerResponse;

const isHeaders = (value: unknown): value is OutgoingHttpHeaders => typeof value === 'object' && value !== null && !Array.isArray(value);

export default defineVariant({
  description:
    'behind an Envoy proxy with header_key_format proper_case_words: response header names in Proper-Case (X-Ratelimit-Remaining, Retry-After), no Connection or Keep-Alive header on persistent HTTP/1.1 responses, Server: envoy and X-Envoy-Upstream-Service-Time added',
  openPoint: 'http-transport',
  atRisk: ['RATE-1', 'RATE-2', 'RATE-3', 'RATE-4', 'RATE-8', 'RATE-9', 'GEN-5', 'GEN-1', 'KEY-4'],
  modify: ({ app }) => {
    app.server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      const started = performance.now();
      const writeHead = res.writeHead as unknown as WriteHead;
      const envoyWriteHead: WriteHead = function (statusCode, ...rest) {
        const extra = { Server: 'envoy', 'X-Envoy-Upstream-Service-Time': String(Math.max(0, Math.round(performance.now() - started))) };
        // Headers set one by one (none in this service, but Node's own path): the same entries, renamed.
        for (const name of this.getHeaderNames()) {
          const value = this.getHeader(name);
          if (value !== undefined) this.setHeader(properCase(name), value);
        }
        const at = rest.findIndex(isHeaders);
        const given = at === -1 ? undefined : (rest[at] as OutgoingHttpHeaders);
        const names = [...Object.keys(given ?? {}), ...this.getHeaderNames()].map((name) => name.toLowerCase());
        // Hop-by-hop: nothing is said on a connection that stays open; Node's `Connection: close` stays when it closes.
        if (this.shouldKeepAlive && !names.includes('connection')) this.removeHeader('connection');
        if (given === undefined) {
          for (const [name, value] of Object.entries(extra)) this.setHeader(name, value);
          return writeHead.call(this, statusCode, ...rest);
        }
        const renamed: OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(given)) {
          if (value !== undefined && name.toLowerCase() !== 'server') renamed[properCase(name)] = value;
        }
        Object.assign(renamed, extra);
        return writeHead.call(this, statusCode, ...rest.map((arg, i) => (i === at ? renamed : arg)));
      };
      (res as unknown as { writeHead: WriteHead }).writeHead = envoyWriteHead;
    });
  },
});
