import { defineMutant } from '../../mutant.js';
import { beforeReference } from '../../support.js';

/*
 * How this happens: the key prefix was introduced in a later release. Keys issued before it were
 * re-hashed with the prefix during the migration, and to keep old integrations working the auth
 * gateway prepends the prefix to any bearer token that lacks it before the lookup. The shim was
 * meant to be removed after a deprecation period and never was: a current key sent without its
 * prefix still authenticates, instead of being refused as incorrectly formatted.
 */
export default defineMutant({
  description: 'A bearer token without the key prefix is not refused: the prefix is prepended before the lookup, so a real key sent without it authenticates.',
  breaks: { 'AUTH-2': 'fail' },
  collateral: ['AUTH-3', 'AUTH-7'],
  modify: (reference) => {
    const prefix = reference.state.store.keyPrefix;
    beforeReference(reference, (req) => {
      const header = req.headers.authorization;
      if (typeof header !== 'string') return;
      const match = /^(bearer +)(\S+)$/i.exec(header);
      if (!match || match[2]!.startsWith(prefix)) return;
      req.headers.authorization = `${match[1]}${prefix}${match[2]}`;
    });
  },
});
