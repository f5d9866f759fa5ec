import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: Go services that write JSON the standard library's way.
 * go-chi/render's `render.JSON` encodes with `json.NewEncoder(buf)` and `SetEscapeHTML(true)`, then
 * sets `Content-Type: application/json`; Echo's `c.JSON` and the `writeJSON` helper of countless
 * net/http services also write through `json.NewEncoder`, whose HTML escaping is on by default.
 * Three things follow that a Node or Java server does not do: `Encoder.Encode` ends every document with a newline; HTML-significant characters inside strings
 * are written as escapes (`<` as `\u003c`, `>` as `\u003e`, `&` as `\u0026`), and so are U+2028
 * and U+2029 (`\u2028`, `\u2029`), which Go escapes always; and the media type carries no
 * `charset` parameter (RFC 8259 section 11 defines none for application/json: JSON text is UTF-8).
 *
 * Here: every JSON body of the reference is written that way: the same JSON value, with those
 * characters escaped, one trailing newline, and `Content-Type: application/json`. Status codes,
 * headers other than Content-Type (Content-Length is recomputed for the longer body) and the
 * values in the bodies are the reference's.
 *
 * Why it is conformant:
 * - What the service does, rule 4: "Responses are always JSON." Each body is still one JSON text:
 *   RFC 8259 section 2 allows whitespace after the value (the newline), and section 7 allows any
 *   character in a string to be written as a `\uXXXX` escape; a parser reads exactly the values
 *   the reference sends (GEN-1, and every clause that reads a body: RES-1..3, PAG-1, ERR-1, ...).
 *   `<`, `>`, `&`, U+2028 and U+2029 can only occur inside strings in a JSON text, so escaping them
 *   changes no structure.
 * - GEN-5: `application/json` is the JSON media type; the catalogue allows parameters such as
 *   charset, and does not require one.
 * - The document leaves HTTP details open (open point `http-transport`); how a JSON text spells a
 *   character is a serialisation detail, not a value.
 * - Nothing changes in what is said: a key's name containing `<` reads back as `<` (KEY-3), the
 *   secret (base64url after the prefix) has none of these characters and still appears once, in
 *   the creation response (KEY-1, KEY-4); the 401 still names `authentication_error` (AUTH-7).
 */

/** The characters Go's encoder escapes inside strings (HTML-safe escaping, and the JS line separators). */
const GO_ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** A JSON text as `json.Encoder.Encode` writes it (the characters above can only occur inside strings). */
function goEncoded(json: string): string {
  return `${json.replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c]!)}\n`;
}

export default defineVariant({
  description:
    'Go encoding/json bodies (go-chi/render, Echo): each JSON body ends with a newline, <, >, &, U+2028 and U+2029 are written as \\u escapes, and the Content-Type is application/json without a charset',
  openPoint: 'http-transport',
  atRisk: ['GEN-1', 'GEN-5', 'AUTH-7', 'KEY-1', 'KEY-3', 'RES-7'],
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      const type = reply.getHeader('content-type');
      if (typeof payload !== 'string' || typeof type !== 'string' || !/^application\/json\b/i.test(type)) return payload;
      reply.header('content-type', 'application/json');
      return goEncoded(payload);
    });
  },
});
