import { defineMutant } from './mutant.js';
import { beforeReference } from './support.js';

/**
 * The offset of a page, (page − 1) × limit, kept in a 32-bit integer (an `int` column of a query
 * builder, a cast in the handler): past 2^31 it wraps, a negative offset is clamped to 0, and a
 * page far past the end answers items from the start of the list.
 */
export default defineMutant({
  description: 'a page whose offset (page − 1) × limit passes 2^31 wraps in 32 bits and answers items from the start of the list',
  breaks: { 'PAG-9': 'warn' },
  // PAG-10's generated pages may pass 2^31 too: a plain spelling wraps, the same number with a leading zero does not.
  collateral: ['PAG-10'],
  modify: (reference) => {
    beforeReference(reference, (req) => {
      if (req.method !== 'GET') return;
      const url = new URL(req.url ?? '/', 'http://x');
      const page = url.searchParams.get('page');
      const limit = url.searchParams.get('limit') ?? '100';
      if (page === null || !/^[1-9]\d*$/.test(page) || !/^[1-9]\d*$/.test(limit)) return;
      const offset = (BigInt(page) - 1n) * BigInt(limit);
      if (offset < 2n ** 31n) return;
      const wrapped = Math.max(0, Number(BigInt.asIntN(32, offset)));
      url.searchParams.set('page', String(Math.floor(wrapped / Number(limit)) + 1));
      req.url = `${url.pathname}${url.search}`;
    });
  },
});
