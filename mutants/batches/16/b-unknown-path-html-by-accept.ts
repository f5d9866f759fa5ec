import { defineMutant } from '../../mutant.js';

// How this happens: the API and the browser web app run in one server, and the catch-all handler
// for unmatched routes was made shared so that people who mistype a URL in the browser get a
// friendly page. It negotiates with `accepts(req).type(['html', 'json'])`: a request that names
// `application/json` in Accept still gets the JSON envelope, but one with no Accept header or with
// `Accept: */*` (the default of curl, fetch and most HTTP libraries) matches `html` first and gets
// the HTML "Not Found" page. Resource-level 404s (an unknown record id) come from the route
// handlers and stay JSON.
export default defineMutant({
  description:
    'An unknown path under /api/v1/ requested without an explicit JSON Accept header (none, or */*) is answered 404 with an HTML page instead of the JSON error envelope.',
  breaks: { 'GEN-1': 'fail', 'ERR-1': 'fail', 'ERR-8': 'warn' },
  collateral: [],
  modify: (reference) => {
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (!req.is404 || reply.statusCode !== 404) return payload;
      const accept = String(req.headers.accept ?? '*/*');
      const wantsJson = accept
        .split(',')
        .map((part) => part.trim().toLowerCase())
        .some((part) => /^(application\/json|application\/\*|[^;]*\+json)(;|$)/.test(part) && !/;\s*q=0(\.0*)?\s*(;|$)/.test(part));
      if (wantsJson) return payload;
      reply.header('content-type', 'text/html; charset=utf-8');
      return '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The page you are looking for does not exist.</p></body></html>\n';
    });
  },
});
