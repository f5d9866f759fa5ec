import { MAX_LIMIT } from '../reference/pagination.js';
import { defineMutant } from './mutant.js';

/** `Math.min(limit, 10000)`: a friendly clamp that hides the client's mistake. */
export default defineMutant({
  description: 'serves limit above 10000 as 10000 instead of answering 422',
  breaks: { 'PAG-4': 'fail' },
  modify: ({ behaviour }) => {
    const faithful = behaviour.parsePageParam;
    behaviour.parsePageParam = (raw, name) => {
      if (name === 'limit' && typeof raw === 'string' && /^[0-9]+$/.test(raw) && BigInt(raw) > BigInt(MAX_LIMIT)) return { ok: true, value: BigInt(MAX_LIMIT) };
      return faithful(raw, name);
    };
  },
});
