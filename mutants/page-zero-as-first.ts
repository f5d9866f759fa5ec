import { defineMutant } from './mutant.js';

/** `Number(page) || 1`: zero is falsy, so page=0 silently becomes the first page. */
export default defineMutant({
  description: 'serves page=0 as page 1 instead of answering 422',
  breaks: { 'PAG-3': 'fail' },
  // `00` spells 0 too, and is served as page 1: another value than it spells.
  collateral: ['PAG-10'],
  modify: ({ behaviour }) => {
    const faithful = behaviour.parsePageParam;
    behaviour.parsePageParam = (raw, name) => (name === 'page' && typeof raw === 'string' && /^0+$/.test(raw) ? { ok: true, value: 1n } : faithful(raw, name));
  },
});
