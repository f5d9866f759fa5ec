import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the pagination middleware was switched to the shared `parseCount()` helper of
 * the CSV importer, which tolerates thousands separators from European and US spreadsheets
 * ("1.234", "1,234", "1 234", "1'234") by stripping every `.`, `,`, apostrophe and space before
 * reading the digits. Plain integers and bad text still behave, but a fraction is silently read as
 * another integer: `limit=2.5` serves 25 items, `page=1.5` serves page 15, `limit=0.5` serves 5.
 */
export default defineMutant({
  description:
    'page and limit are read by a locale-tolerant integer parser that strips grouping separators, so a fraction such as limit=2.5 is served as limit=25 (200) instead of 422 invalid_request_error.',
  breaks: { 'PAG-5': 'fail' },
  collateral: ['PAG-3', 'PAG-4', 'PAG-10'],
  modify: (reference) => {
    const faithful = reference.behaviour.parsePageParam;
    reference.behaviour.parsePageParam = (raw, name) => {
      if (typeof raw !== 'string' || !/[0-9]/.test(raw)) return faithful(raw, name);
      const stripped = raw.replace(/[\s.,'\u2019]/g, '');
      return faithful(stripped === '' ? raw : stripped, name);
    };
  },
});
