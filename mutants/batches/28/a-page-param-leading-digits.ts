import { defineMutant } from '../../mutant.js';

/*
 * How this happens: as part of the framework upgrade, the hand-written page/limit checks were
 * swapped for the new validation library's chain `query('limit').optional().toInt().isInt({ min: 1,
 * max: 10000 })`. In the library's new major version a chain runs in the order it is written, so
 * the `toInt()` sanitizer (a plain `parseInt(value, 10)`) runs before `isInt()`, and the validator
 * only ever sees the integer parseInt made. `limit=25` and `limit=abc` behave as before, so the
 * team's tests stay green; `limit=2.5`, `page=3abc` or `limit=1e3` are silently read as their leading
 * digits (2, 3, 1) instead of being refused.
 */
export default defineMutant({
  description:
    'page and limit go through parseInt before they are validated, so a fraction or a number with trailing text (limit=2.5, page=2abc, limit=1e3) is read as its leading digits and answered 200 instead of 422.',
  breaks: { 'PAG-5': 'fail', 'PAG-10': 'warn' },
  collateral: ['PAG-4'],
  modify: (reference) => {
    const faithful = reference.behaviour.parsePageParam;
    reference.behaviour.parsePageParam = (raw, name) => {
      if (typeof raw === 'string' && raw !== '' && !/^[0-9]+$/.test(raw)) {
        const coerced = Number.parseInt(raw, 10);
        // NaN (no leading digits) and negatives still reach the faithful check and its 422.
        if (Number.isSafeInteger(coerced) && coerced >= 0) return faithful(String(coerced), name);
      }
      return faithful(raw, name);
    };
  },
});
