import { defineMutant } from '../../mutant.js';

/*
 * How this happens: support tickets from clients sending `limit=50 ` or `page=02` led to a
 * "be liberal in what you accept" refactor of the query reader: the strict digits-only check was
 * replaced by `const n = Number.parseInt(raw, 10); if (Number.isNaN(n)) reject`. parseInt reads
 * the leading digits and ignores the rest, so `page=1.5` is page 1, `limit=2.9` is 2,
 * `limit=1e3` is 1 and `limit=25abc` is 25: fractions and junk are silently read as another value
 * instead of being refused. Text with no leading digit (`page=abc`) is still 422.
 */
export default defineMutant({
  description:
    'page and limit are read with parseInt, so a fraction (page=1.5, limit=2.9), an exponent (limit=1e3) or trailing junk is silently truncated to its leading digits instead of 422.',
  breaks: { 'PAG-5': 'fail', 'PAG-10': 'warn' },
  collateral: [],
  modify: (reference) => {
    const faithful = reference.behaviour.parsePageParam;
    reference.behaviour.parsePageParam = (raw, name) => {
      if (typeof raw !== 'string' || raw === '') return faithful(raw, name);
      const n = Number.parseInt(raw, 10);
      if (Number.isNaN(n)) return { ok: false, message: `${name} must be an integer.` };
      if (n < 0) return name === 'page' ? { ok: false, message: 'page starts at 1.' } : { ok: false, message: 'limit must be between 1 and 10000.' };
      return faithful(BigInt(n).toString(), name);
    };
  },
});
