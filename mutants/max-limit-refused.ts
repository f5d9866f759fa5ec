import { MAX_LIMIT } from '../reference/pagination.js';
import { defineMutant } from './mutant.js';

/** `limit < 10000` where the document says "1 to 10000 inclusive". */
export default defineMutant({
  description: 'refuses limit=10000, the largest page the document allows, with 422',
  breaks: { 'PAG-4': 'fail' },
  collateral: ['RES-6'],
  modify: ({ behaviour }) => {
    const faithful = behaviour.parsePageParam;
    behaviour.parsePageParam = (raw, name) => {
      const parsed = faithful(raw, name);
      if (name === 'limit' && parsed.ok && parsed.value >= BigInt(MAX_LIMIT)) return { ok: false, message: `limit must be below ${MAX_LIMIT}.` };
      return parsed;
    };
  },
});
