import { beforeReference } from '../../../mutants/support.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: Express's router matches routes case-insensitively and
 * tolerates one trailing slash unless told otherwise (`caseSensitive: false` and `strict: false`
 * are its defaults), so `/API/V1/Records` and `/api/v1/records/` reach the records list; ASP.NET
 * Core's endpoint routing does the same (literal segments compare case-insensitively, a trailing
 * slash is ignored), and so does anything on IIS, whose URL space is case-insensitive. Teams keep
 * the defaults: hand-typed URLs from integrators' scripts and docs work. Route parameters keep
 * their case (only literal segments fold), so ids, which are case-sensitive, are looked up
 * exactly as sent.
 *
 * Why it is conformant: every documented path is served exactly as documented; the variant only
 * also serves spellings the document never mentions. The origin owns its URI namespace, and URI
 * path comparison is the server's to define (RFC 3986 6.2.2.1 leaves path case to the scheme and
 * server; RFC 9110 4.2.3 lets an origin treat URIs as equivalent). Nothing about authentication
 * is bypassed: the spelling is folded before the service sees the request, so a folded request is
 * authenticated, rate-limited, validated and answered exactly like the documented one (same
 * status, same body, same headers). A path matching no route in any case (another version such
 * as `/api/v2/...`, a misspelt resource, an empty or doubled segment) is left as sent and still
 * gets the reference's 404 envelope, and a method a route does not support still gets 405.
 */

/** The document's own paths; the profile's paths and forbidden probe are added to them. */
const DOCUMENTED = ['/api/v1/workspaces', '/api/v1/governance_models', '/api/v1/records', '/api/v1/submissions', '/api/v1/api_keys'];

const isParam = (segment: string): boolean => /^\{[^}]*\}$/.test(segment);

/** ASCII-only case folding, as routers do: no Unicode equivalences (the Kelvin sign stays itself). */
const fold = (text: string): string => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** Does a route match these segments: exactly as spelt, or (`folding`) ignoring letter case? */
function matches(template: readonly string[], segments: readonly string[], folding: boolean): boolean {
  if (template.length !== segments.length) return false;
  return template.every((literal, i) => {
    const segment = segments[i]!;
    if (isParam(literal)) return segment !== '';
    return folding ? fold(literal) === fold(segment) : literal === segment;
  });
}

/**
 * The documented spelling of `path` when some route matches it ignoring case (and one trailing
 * slash), route parameters kept as sent; null when none does. A route spelt exactly as requested
 * wins; else the one with more literal segments, as a router prefers a static segment over a
 * parameter.
 */
function canonical(path: string, templates: readonly (readonly string[])[]): string | null {
  const exact = path.split('/');
  if (templates.some((template) => matches(template, exact, false))) return path;
  const candidates = path.length > 1 && path.endsWith('/') ? [path, path.slice(0, -1)] : [path];
  for (const candidate of candidates) {
    const segments = candidate.split('/');
    let best: readonly string[] | null = null;
    for (const template of templates) {
      if (!matches(template, segments, true)) continue;
      if (best === null || template.filter((s) => !isParam(s)).length > best.filter((s) => !isParam(s)).length) best = template;
    }
    if (best !== null) return best.map((literal, i) => (isParam(literal) ? segments[i]! : literal)).join('/');
  }
  return null;
}

export default defineVariant({
  description:
    "routes like Express's defaults: literal path segments match case-insensitively and one trailing slash is ignored (`/API/V1/Records/` is the records list), while ids and other route parameters keep their case",
  openPoint: 'trailing-slash',
  atRisk: ['ERR-8', 'GEN-2', 'GEN-1', 'AUTH-1', 'RES-4', 'ERR-5', 'ERR-9'],
  modify: (reference) => {
    const { profile } = reference.state;
    const paths = [
      ...DOCUMENTED,
      ...Object.values(profile.paths).filter((p): p is string => typeof p === 'string'),
      ...(profile.forbiddenProbe ? [profile.forbiddenProbe.path] : []),
    ];
    const templates = [...new Set(paths)].map((p) => p.split('/'));
    // Before Fastify routes the request, so authentication and everything after see the folded URL.
    beforeReference(reference, (req) => {
      const url = req.url;
      if (url === undefined || !url.startsWith('/')) return;
      const cut = url.indexOf('?');
      const path = cut === -1 ? url : url.slice(0, cut);
      const query = cut === -1 ? '' : url.slice(cut);
      const folded = canonical(path, templates);
      if (folded !== null && folded !== path) req.url = folded + query;
    });
  },
});
