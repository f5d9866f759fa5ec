import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the API is a PHP service on Symfony. Its controllers answer
 * with `JsonResponse` (or `AbstractController::json()`, which uses the same flags), whose
 * DEFAULT_ENCODING_OPTIONS are JSON_HEX_TAG | JSON_HEX_APOS | JSON_HEX_AMP | JSON_HEX_QUOT, and
 * neither JSON_UNESCAPED_SLASHES nor JSON_UNESCAPED_UNICODE. So PHP's json_encode writes every `/`
 * as `\/`, every character beyond ASCII as `\uXXXX` (UTF-16 code units, so an emoji is a surrogate
 * pair), `<` `>` `&` `'` as `\u003C` `\u003E` `\u0026` `\u0027`, and a `"` inside a string as
 * `\u0022`. The bodies are pure ASCII, and JsonResponse labels them `Content-Type: application/json`
 * with no charset; Symfony's ResponseHeaderBag adds its default `Cache-Control: no-cache, private`
 * to every response. The keys the service issues are PHP's idiom
 * `$prefix . base64_encode(random_bytes(24))`: the standard base64 alphabet, so a secret usually
 * holds `+` and `/` (as AWS secret access keys and Azure storage keys do); in the key creation
 * response its `/` are therefore written `\/`. The owner key seeded before the run keeps the form
 * it was issued in.
 *
 * Why it is conformant:
 * - What the service does, rule 4 ("Responses are always JSON"): every body is a JSON text, and
 *   RFC 8259 section 7 lets any character be escaped: `"\/"` is the string "/", `"\u00e9"` is "é",
 *   `"\u0022"` is `"`. A JSON parser reads exactly the values the reference sends: every resource,
 *   list envelope, error object (type, code, message, param, path), key name and key secret is
 *   the same string once parsed. The document fixes values, never the bytes that spell them.
 * - GEN-5: the label is `application/json`; RFC 8259 section 11 defines no charset parameter for
 *   it (a JSON text exchanged between systems is UTF-8, section 8.1, and ASCII is UTF-8).
 * - Authentication rule 2: a key is the fixed prefix followed by secret characters; the document
 *   does not name their alphabet. `+` and `/` are characters of the token68 /
 *   b64token syntax that `Authorization: Bearer` carries (RFC 9110 11.2, RFC 6750 2.1), so the key
 *   travels in the header as it is. Only the exact key authenticates: the same characters in the
 *   URL-safe alphabet (`-` for `+`, `_` for `/`) are another token and get 401 (AUTH-3), and the
 *   key still starts with the profile's prefix (AUTH-5). The key list shows the same four-character
 *   hint as the reference (`\u2026` followed by the secret's last four characters), below the 8
 *   characters that make "a part of the secret".
 * - Cache-Control: no-cache, private only restricts caches (RFC 9111 5.2.2.4, 5.2.2.7); no status,
 *   X-RateLimit-* header or Retry-After changes.
 */

/** PHP's json_encode of one string under JsonResponse's flags (and without the UNESCAPED ones). */
function phpString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const ch = text[i]!;
    switch (ch) {
      case '"':
        out += '\\u0022';
        continue;
      case '\\':
        out += '\\\\';
        continue;
      case '/':
        out += '\\/';
        continue;
      case '<':
        out += '\\u003C';
        continue;
      case '>':
        out += '\\u003E';
        continue;
      case '&':
        out += '\\u0026';
        continue;
      case "'":
        out += '\\u0027';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
    }
    out += unit < 0x20 || unit > 0x7e ? (unit === 0x7f ? ch : `\\u${unit.toString(16).padStart(4, '0')}`) : ch;
  }
  return `${out}"`;
}

/** The whole value as json_encode writes it: no whitespace, members in their order. */
function phpJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string') return phpString(value);
  if (Array.isArray(value)) return `[${value.map(phpJson).join(',')}]`;
  const members = Object.entries(value as Record<string, unknown>).map(([name, member]) => `${phpString(name)}:${phpJson(member)}`);
  return `{${members.join(',')}}`;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

export default defineVariant({
  description:
    "a Symfony service: JsonResponse's default flags write `/` as `\\/`, non-ASCII as \\uXXXX and < > & ' \" as \\u003C-style escapes, labelled application/json (no charset) with Cache-Control: no-cache, private; issued keys are the prefix plus standard base64 (+ and /)",
  openPoint: 'http-transport',
  atRisk: ['GEN-1', 'GEN-5', 'KEY-1', 'KEY-2', 'KEY-3', 'KEY-4', 'KEY-5', 'AUTH-3', 'AUTH-5', 'AUTH-7', 'ERR-1', 'RES-1', 'RES-2', 'RES-3'],
  modify: ({ app, state }) => {
    const { store } = state;
    const prefix = store.keyPrefix;
    const issue = store.createKey.bind(store);
    const lookUp = store.findKey.bind(store);
    /** Keys issued by this service, in the standard alphabet. */
    const standard = new Set<string>();
    store.createKey = (account, name) => {
      const { record, secret } = issue(account, name);
      // base64url and base64 differ in two characters only: the same random bytes, PHP's spelling.
      const shown = prefix + secret.slice(prefix.length).replaceAll('-', '+').replaceAll('_', '/');
      standard.add(record.id);
      (record as { hint: string }).hint = shown.slice(-4);
      return { record, secret: shown };
    };
    store.findKey = (token) => {
      if (!token.startsWith(prefix)) return lookUp(token);
      const rest = token.slice(prefix.length);
      const urlSafe = /[-_]/.test(rest);
      const direct = lookUp(token);
      if (direct) return !standard.has(direct.id) || !urlSafe ? direct : null;
      if (urlSafe) return null;
      const mapped = lookUp(prefix + rest.replaceAll('+', '-').replaceAll('/', '_'));
      return mapped && standard.has(mapped.id) ? mapped : null;
    };

    app.addHook('onSend', async (_req, reply, payload) => {
      reply.header('cache-control', 'no-cache, private');
      if (typeof payload !== 'string' || payload === '') return payload;
      if (!String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
      const parsed = parseJson(payload);
      if (!parsed.ok) return payload;
      reply.header('content-type', 'application/json');
      return phpJson(parsed.value);
    });
  },
});
