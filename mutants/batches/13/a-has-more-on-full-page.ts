import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the list code was moved from an offset query with COUNT(*) to a cheaper
 * "did we fill the page?" test, so `has_more` is `items.length === limit`. Every page but the last
 * is full, so it looks right, until the collection size is an exact multiple of `limit`: the last
 * page is full too, says `has_more: true`, and the client fetches one extra empty page.
 */
export default defineMutant({
  description: 'has_more is true whenever a page is full, so on the last page of a collection whose size is a multiple of limit it says more pages follow.',
  breaks: { 'PAG-6': 'fail', 'PAG-7': 'fail' },
  collateral: ['PAG-8'],
  modify: (reference) => {
    const { behaviour } = reference;
    const faithful = behaviour.pageWindow;
    behaviour.pageWindow = (total, page, limit) => {
      const window = faithful(total, page, limit);
      return { ...window, hasMore: window.end - window.start === Number(limit) };
    };
  },
});
