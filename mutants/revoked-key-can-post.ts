import { beforeReference } from './support.js';
import { defineMutant } from './mutant.js';

/** Marks a write's token so that the key lookup below knows the request writes. */
const WRITE_MARK = '~write';

/**
 * Reads check keys against a revocation list; writes go to the primary database's key table,
 * which a deletion does not reach: a deleted key can still create, submit and delete.
 */
export default defineMutant({
  description: 'accepts a deleted key on POST and DELETE requests (only GET checks revocation)',
  breaks: { 'AUTH-3': 'fail' },
  modify: (reference) => {
    const { store } = reference.state;
    const find = store.findKey.bind(store);
    beforeReference(reference, (req) => {
      if (req.method !== 'POST' && req.method !== 'DELETE') return;
      const token = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (token && find(token)?.revokedAtMs != null) req.headers.authorization = `Bearer ${token}${WRITE_MARK}`;
    });
    store.findKey = (token) => {
      if (!token.endsWith(WRITE_MARK)) return find(token);
      const key = find(token.slice(0, -WRITE_MARK.length));
      return key && { ...key, revokedAtMs: null };
    };
  },
});
