import { defineMutant } from './mutant.js';

/** `limit=0` taken to mean "no limit": a whole collection in one response. */
export default defineMutant({
  description: 'serves every item when limit=0 instead of answering 422',
  breaks: { 'PAG-4': 'fail' },
  modify: ({ behaviour }) => {
    const faithful = behaviour.parsePageParam;
    behaviour.parsePageParam = (raw, name) => (name === 'limit' && raw === '0' ? { ok: true, value: BigInt(Number.MAX_SAFE_INTEGER) } : faithful(raw, name));
  },
});
