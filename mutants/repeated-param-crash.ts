import { defineMutant } from './mutant.js';

/** `limit=5&limit=5` reaches the handler as an array, and `raw.trim()` on it throws: 500. */
export default defineMutant({
  description: 'answers 500 api_error when page or limit is given twice',
  breaks: { 'PAG-10': 'warn' },
  collateral: ['GEN-3'],
  modify: ({ behaviour }) => {
    const faithful = behaviour.parsePageParam;
    behaviour.parsePageParam = (raw, name) => {
      (raw as string | undefined)?.trim();
      return faithful(raw, name);
    };
  },
});
