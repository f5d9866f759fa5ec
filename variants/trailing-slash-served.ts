import { beforeReference } from '../mutants/support.js';
import { defineVariant } from './variant.js';

/** A path under /api/v1/ that ends in one slash is served as the same path without it. */
export default defineVariant({
  description: 'serves every path with a trailing slash like the same path without it (/api/v1/workspaces/ is /api/v1/workspaces)',
  openPoint: 'trailing-slash',
  atRisk: ['ERR-8', 'GEN-2', 'RES-4', 'ERR-5'],
  modify: (reference) => {
    beforeReference(reference, (req) => {
      const url = req.url ?? '';
      const at = url.indexOf('?');
      const path = at === -1 ? url : url.slice(0, at);
      if (/^\/api\/v1\/.*[^/]\/$/.test(path)) req.url = path.slice(0, -1) + (at === -1 ? '' : url.slice(at));
    });
  },
});
