import { defineMutant } from './mutant.js';

/** A loose "looks numeric" test, then BigInt(raw), which throws on `1e3` or `2.5`: the error handler answers 500. */
export default defineMutant({
  description: 'answers 500 api_error to a numeric-looking limit that is no plain integer (limit=1e3, limit=2.5)',
  breaks: { 'PAG-5': 'fail', 'PAG-10': 'warn' },
  collateral: ['GEN-3'],
  modify: ({ behaviour }) => {
    const faithful = behaviour.parsePageParam;
    behaviour.parsePageParam = (raw, name) => {
      if (name === 'limit' && typeof raw === 'string' && /^[0-9.eE+-]+$/.test(raw) && !/^[0-9]+$/.test(raw)) {
        BigInt(raw); // throws SyntaxError for 1e3, 2.5, 1.0: nothing catches it
      }
      return faithful(raw, name);
    };
  },
});
