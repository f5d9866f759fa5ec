import { defineMutant } from './mutant.js';

/**
 * A guard against precision lost past 2^53, written on the spelling instead of the number: a page
 * of sixteen digits or more cannot be exact in a double, so it is read as the largest safe integer
 * (a page past the end of any list). `0000000000000002` is sixteen digits too. Written from a
 * fault of a hidden batch (a card-number scrubber that dropped values of 13 to 19 digits): a long
 * spelling of a small number.
 */
export default defineMutant({
  description: 'reads a page spelled in sixteen digits or more as 2^53 - 1, whatever number it spells',
  breaks: { 'PAG-10': 'warn' },
  modify: (reference) => {
    const faithful = reference.behaviour.parsePageParam;
    reference.behaviour.parsePageParam = (raw, name) =>
      faithful(name === 'page' && typeof raw === 'string' && /^\d{16,}$/.test(raw) ? String(Number.MAX_SAFE_INTEGER) : raw, name);
  },
});
