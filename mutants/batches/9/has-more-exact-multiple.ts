import { defineMutant } from '../../mutant.js';

/*
 * How this happens: `has_more` is computed as `page * limit <= total` ("have we not yet passed the
 * end?") instead of `page * limit < total`. It is right on every page except the last page of a
 * collection whose size is an exact multiple of the limit, where it says true and the client reads
 * one extra, empty page.
 */
export default defineMutant({
  description:
    'has_more is computed as page * limit <= total_count, so the last page of a collection whose size is a multiple of limit claims that more pages follow.',
  breaks: { 'PAG-6': 'fail', 'PAG-7': 'fail' },
  collateral: ['PAG-8', 'PAG-9', 'KEY-6', 'SUB-4'],
  modify: (reference) => {
    const faithful = reference.behaviour.pageWindow;
    reference.behaviour.pageWindow = (total, page, limit) => {
      const window = faithful(total, page, limit);
      return { ...window, hasMore: page * limit <= BigInt(total) };
    };
  },
});
