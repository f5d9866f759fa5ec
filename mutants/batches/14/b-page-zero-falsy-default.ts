import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the list controller lets the framework's schema coerce `page` to a number
 * (text and fractions are refused there, with a 422) and then applies the default with
 * `const page = query.page || 1;` before its own `if (page < 1)` bound check. Zero is falsy in
 * JavaScript, so `page=0` (or `page=00`) never reaches the check: it is silently served as page 1,
 * while `page=-1` is still refused. `limit` goes through a separate clamp helper and is not affected.
 */
export default defineMutant({
  description: 'A page of 0 (any run of zeros) is read as "no page given" and answered 200 with page 1 instead of 422 naming page.',
  breaks: { 'PAG-3': 'fail' },
  collateral: ['PAG-10'],
  modify: (reference) => {
    const faithful = reference.behaviour.parsePageParam;
    reference.behaviour.parsePageParam = (raw, name) => {
      if (name === 'page' && typeof raw === 'string' && /^0+$/.test(raw)) return { ok: true, value: 1n };
      return faithful(raw, name);
    };
  },
});
