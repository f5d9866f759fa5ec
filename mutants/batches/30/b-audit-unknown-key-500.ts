import { defineMutant } from '../../mutant.js';

/*
 * How this happens: an audit trail of key use is added, failed attempts included ("who tried which
 * key, when"). Trails are partitioned by account, so that each account can later read its own, and
 * the audit call sits in the key lookup, right after the hash is matched: the event is filed under
 * `key!.accountId`. A revoked key is still found by the lookup (it is refused afterwards), so the
 * feature's tests, which tried a valid and a revoked key, pass; a well-formed token that matches no
 * key has no account, the lookup throws a TypeError, and the request ends in the generic 500.
 */
export default defineMutant({
  description:
    "A well-formed API key that matches no key (a mistyped or made-up key) is answered 500 api_error instead of 401 authentication_error, because the key-use audit files every lookup under the matched key's account.",
  breaks: { 'AUTH-3': 'fail', 'GEN-3': 'warn' },
  collateral: ['AUTH-8'],
  modify: (reference) => {
    const { store } = reference.state;
    interface KeyUse {
      readonly keyId: string | null;
      readonly matched: boolean;
      readonly atMs: number;
    }
    /** The audit trail of each account, by account id. */
    const trails = new Map<string, KeyUse[]>();
    const find = store.findKey.bind(store);
    store.findKey = (token) => {
      const key = find(token);
      const accountId = key!.accountId;
      const trail = trails.get(accountId) ?? [];
      trail.push({ keyId: key?.id ?? null, matched: key !== null, atMs: reference.state.now() });
      // Keep the last thousand events of each account in memory before they are flushed.
      if (trail.length > 1000) trail.splice(0, trail.length - 1000);
      trails.set(accountId, trail);
      return key;
    };
  },
});
