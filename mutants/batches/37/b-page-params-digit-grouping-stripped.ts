import { defineMutant } from '../../mutant.js';

/** What the clean-up takes for digit grouping: spaces of every kind, dots, commas, apostrophes, underscores. */
const GROUPING = /[\s.,'\u2019_]/gu;

/*
 * How this happens: customers building links by hand in spreadsheets sent `limit=1,000`,
 * `limit=1.000` (German), `limit=1 000` (French, with a no-break space) and full-width digits typed
 * with a Japanese input method, and got 422s. A support engineer adds a clean-up in front of the
 * page and limit parser: NFKC-normalise the value (which folds full-width digits to ASCII), then
 * strip the digit-grouping characters of the common locales. The strict parser behind it still
 * refuses signs, exponents and letters, so the change looks safe, and the unit tests add exactly the
 * grouped spellings above. But a dot is also a decimal point: `limit=2.5` is now read as 25 and
 * `page=1.5` as page 15, answered 200 as if the client had asked for them.
 */
export default defineMutant({
  description:
    'page and limit are NFKC-normalised and stripped of digit-grouping characters (spaces, dots, commas, apostrophes, underscores) before parsing, so a fraction such as 2.5 is read as 25.',
  breaks: { 'PAG-5': 'fail' },
  collateral: ['PAG-10'],
  modify: ({ behaviour }) => {
    const parse = behaviour.parsePageParam.bind(behaviour);
    behaviour.parsePageParam = (raw, name) => parse(typeof raw === 'string' ? raw.normalize('NFKC').replace(GROUPING, '') : raw, name);
  },
});
