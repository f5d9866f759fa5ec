import { defineMutant } from './mutant.js';
import { beforeReference, itemPrefix } from './support.js';

/**
 * Retrievals authenticate through a token cache filled at a key's first use and never told of a
 * revocation; lists and writes ask the store. A revoked key keeps reading single resources.
 */
export default defineMutant({
  description: 'accepts a revoked key on the retrieval of a single workspace, governance model, record, taxonomy, field or picklist',
  breaks: { 'KEY-5': 'fail' },
  modify: (reference) => {
    const { store, profile } = reference.state;
    const paths = profile.paths;
    const prefixes = [paths.workspace, paths.governanceModel, paths.record, paths.taxonomy, paths.field, paths.picklist]
      .map(itemPrefix)
      .filter((p): p is string => p !== null);
    beforeReference(reference, (req) => {
      const path = (req.url ?? '').split('?')[0]!;
      if (req.method !== 'GET' || !prefixes.some((p) => path.startsWith(p) && path.length > p.length)) return;
      const token = /^Bearer +(\S+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
      const key = token ? store.findKey(token) : null;
      if (!key || key.revokedAtMs === null) return;
      // Served as if live for this request alone; the revocation stands again once it is answered.
      const revokedAtMs = key.revokedAtMs;
      key.revokedAtMs = null;
      req.once('close', () => {
        key.revokedAtMs = revokedAtMs;
      });
    });
  },
});
