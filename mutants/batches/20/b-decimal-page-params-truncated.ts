import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the old PHP SDK, still used by a large customer, serialises every number as a
 * float and sends `limit=100.0&page=2.0`. When v1 became strict about integers those clients broke,
 * so a compatibility shim was added in front of the parameter parser: a value matching
 * `^\d+\.\d+$` is cut at its decimal point. The regex was meant for `.0` and nobody restricted it,
 * so a real fraction such as `limit=2.5` or `page=1.5` is silently served as 2 or 1.
 */
export default defineMutant({
  description:
    'A page or limit written as a decimal (limit=2.5, page=1.5) is truncated to its integer part and served (200) instead of being refused with 422 naming the parameter.',
  breaks: { 'PAG-5': 'fail' },
  collateral: ['PAG-10'],
  modify: (reference) => {
    const faithful = reference.behaviour.parsePageParam;
    reference.behaviour.parsePageParam = (raw, name) => {
      if (typeof raw === 'string' && /^[0-9]+\.[0-9]+$/.test(raw)) return faithful(raw.slice(0, raw.indexOf('.')), name);
      return faithful(raw, name);
    };
  },
});
