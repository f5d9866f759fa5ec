/**
 * Whether a URL is one that front ends commonly refuse themselves, in their own words, before the
 * API sees the request: a control character in the path or the query, percent-encoded or not
 * (lighttpd's default `url-ctrls-reject` answers a `%09` with its HTML 400, Apache an encoded NUL
 * with its HTML 404), or a `%` that begins no percent-encoding (nginx's HTML 400). Whatever check
 * sent it, its answer is judged for robustness only (GEN-3), never for the API's envelope, content
 * type or headers (`Exchange.frontEndFragile`): a front end answering for the API is said, and
 * warned at most, never a MUST's failure.
 */
export function fragileAtHttpLevel(url: string): boolean {
  // The path and query: what follows the authority of an absolute URL, or the whole of a relative one.
  const scheme = url.indexOf('://');
  const path = scheme < 0 ? 0 : url.indexOf('/', scheme + 3);
  const rest = path < 0 ? '' : url.slice(path);
  return /%(?:[01][0-9a-f]|7f)/i.test(rest) || /%(?![0-9a-f]{2})/i.test(rest) || /[\u0000-\u001f\u007f]/.test(rest);
}
