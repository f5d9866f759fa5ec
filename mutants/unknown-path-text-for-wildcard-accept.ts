import { defineMutant } from './mutant.js';

/**
 * The router's own fallback answers an unmatched path, in the words of Express's finalhandler
 * ("Cannot GET /api/v1/…", text/plain), to a request whose Accept holds a wildcard (curl's and
 * fetch's `*\/*`); the API's JSON 404 was mounted for requests that ask for JSON alone. The class of
 * blind batch 16's `b-unknown-path-html-by-accept` (a request header × an unknown path), with
 * another trigger and another body: caught by the pairs, which cross the operation "an unknown
 * path" with the header `Accept: *\/*` on a live key (suites/catalogues/pair-dimensions.ts).
 */
export default defineMutant({
  description: 'an unknown path under /api/v1/ asked with a wildcard Accept is answered 404 in plain text ("Cannot GET /api/v1/…")',
  breaks: { 'GEN-1': 'fail', 'ERR-1': 'fail' },
  modify: (reference) => {
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (!req.is404 || reply.statusCode !== 404 || !String(req.headers.accept ?? '').includes('*/*')) return payload;
      reply.header('content-type', 'text/plain; charset=utf-8');
      return `Cannot ${req.method} ${req.url.split('?')[0]}`;
    });
  },
});
