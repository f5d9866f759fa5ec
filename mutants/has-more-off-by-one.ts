import { defineMutant } from './mutant.js';

/** `has_more = page * limit <= total`: one `<=` too many, so the exactly full last page says more follow. */
export default defineMutant({
  description: 'says has_more true on a last page that is exactly full (page * limit == total_count)',
  breaks: { 'PAG-6': 'fail' },
  collateral: ['PAG-7'],
  modify: ({ behaviour }) => {
    const faithful = behaviour.pageWindow;
    behaviour.pageWindow = (total, page, limit) => {
      const window = faithful(total, page, limit);
      return { ...window, hasMore: window.start < total && page * limit <= BigInt(total) };
    };
  },
});
