import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';

/*
 * How this happens: a shared `findById` helper runs `decodeURIComponent(req.params.id)` "because
 * ids arrived encoded from one client", not knowing that the router has already decoded the path
 * parameter. Ordinary ids survive the second decoding unchanged. An id holding a literal `%`
 * (sent correctly as `%25`) reaches the helper as `...%...`, the second decoding throws
 * `URIError: URI malformed`, and the uncaught error becomes a 500 `api_error` where the document
 * wants a 404 for a resource that does not exist.
 */
export default defineMutant({
  description:
    'Single-resource retrieval percent-decodes the already decoded id a second time, so an id containing a literal "%" (sent as %25) answers 500 api_error instead of 404 not_found_error.',
  breaks: { 'ERR-5': 'fail', 'GEN-3': 'warn' },
  collateral: ['ERR-9', 'RES-4'],
  modify: (reference) => {
    const { paths } = reference.state.profile;
    const prefixes = [paths.workspace, paths.governanceModel, paths.record, paths.taxonomy, paths.field, paths.picklist]
      .map(itemPrefix)
      .filter((p): p is string => p !== null);
    reference.app.addHook('preHandler', async (req) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return;
      const path = pathOf(req);
      if (!prefixes.some((p) => path.startsWith(p) && path.length > p.length)) return;
      const params = req.params as { id?: string };
      if (typeof params.id !== 'string') return;
      // Throws URIError on a lone "%": the error handler answers 500 api_error.
      params.id = decodeURIComponent(params.id);
    });
  },
});
