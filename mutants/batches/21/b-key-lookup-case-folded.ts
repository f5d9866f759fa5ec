import { defineMutant } from '../../mutant.js';
import { beforeReference, keptSecrets } from '../../support.js';

/*
 * How this happens: the first generation of keys was lowercase hex, and the auth middleware was
 * written to "normalise" the presented token (`token.toLowerCase()`) before hashing it, so that
 * keys pasted from e-mail clients that capitalise the first letter kept working; key creation hashes
 * the lowercased key too. When the generator moved to mixed-case base64url the normalisation stayed.
 * The fixed prefix is checked before the folding, so `SK_...` is still refused, but any change of
 * letter case in the secret part of a live key authenticates as that key.
 */

/** The token as the faulty lookup sees it: the prefix as sent, the secret part case-folded. */
function fold(token: string, prefix: string): string {
  return prefix + token.slice(prefix.length).toLowerCase();
}

export default defineMutant({
  description:
    'API keys are matched case-insensitively: a live key with the letter case of its secret part changed authenticates (200) instead of being refused 401 authentication_error.',
  breaks: { 'AUTH-3': 'fail' },
  collateral: [],
  modify: (reference) => {
    const { store } = reference.state;
    const prefix = store.keyPrefix;
    // The reference keeps only hashes: remember each exact key seen in use or created, by its folded form.
    const created = keptSecrets(reference);
    const seen = new Map<string, string>();
    beforeReference(reference, (req) => {
      const header = req.headers.authorization;
      if (typeof header !== 'string') return;
      const match = /^(bearer +)(\S+)$/i.exec(header);
      if (!match) return;
      const token = match[2]!;
      if (!token.startsWith(prefix)) return;
      const folded = fold(token, prefix);
      if (store.findKey(token)) {
        seen.set(folded, token);
        return;
      }
      let exact = seen.get(folded);
      if (exact === undefined) {
        for (const secret of created.values()) {
          if (fold(secret, prefix) === folded) exact = secret;
        }
      }
      if (exact !== undefined) req.headers.authorization = `${match[1]!}${exact}`;
    });
  },
});
