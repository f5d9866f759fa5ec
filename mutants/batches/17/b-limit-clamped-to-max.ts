import { defineMutant } from '../../mutant.js';

const MAX_LIMIT = 10_000n;

/*
 * How this happens: after a customer asked for `limit=50000` and timed the database out, the
 * developer "hardened" the list endpoints with `limit = Math.min(limit, MAX_LIMIT)`, the way many
 * public APIs cap their page size, instead of refusing the value. A limit of 1 to 10000 is read as
 * before, one below 1 is still refused, but any larger limit (10001, or one beyond 2^53) is
 * silently served as 10000 with status 200 and no error naming `limit`.
 */
export default defineMutant({
  description: 'A limit above 10000 is silently clamped to 10000 and answered 200, instead of 422 invalid_request_error naming limit.',
  breaks: { 'PAG-4': 'fail' },
  collateral: ['PAG-10'],
  modify: (reference) => {
    const faithful = reference.behaviour.parsePageParam;
    reference.behaviour.parsePageParam = (raw, name) => {
      if (name === 'limit' && typeof raw === 'string' && /^[0-9]+$/.test(raw) && BigInt(raw) > MAX_LIMIT) return { ok: true, value: MAX_LIMIT };
      return faithful(raw, name);
    };
  },
});
