import { defineMutant } from '../../mutant.js';
import { beforeReference } from '../../support.js';

/*
 * How this happens: the Go rewrite parses the Authorization header as
 * `parts := strings.Fields(h); if len(parts) < 2 || !strings.EqualFold(parts[0], "Bearer") { 401 }`
 * and then takes `parts[1]` as the token. The check was meant to be `len(parts) != 2`; written as
 * `< 2`, anything after the token is silently dropped. Missing headers, other schemes, a bare
 * `Bearer`, tokens without the prefix and unknown keys are all still refused, which is everything
 * the ported auth tests try, so `Bearer <valid key> anything` authenticating goes unnoticed.
 */
export default defineMutant({
  description:
    'An Authorization header with extra parts after a valid key ("Bearer <key> junk") is accepted: the parser takes the second whitespace-separated field as the token and ignores the rest, answering 2xx instead of 401.',
  breaks: { 'AUTH-2': 'fail' },
  collateral: ['AUTH-7'],
  modify: (reference) => {
    beforeReference(reference, (req) => {
      const header = req.headers.authorization;
      if (typeof header !== 'string') return;
      const match = /^(bearer +\S+)\s+\S.*$/i.exec(header);
      if (match) req.headers.authorization = match[1]!;
    });
  },
});
