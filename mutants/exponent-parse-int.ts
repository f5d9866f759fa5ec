import { parsePageParam } from '../reference/pagination.js';
import { defineMutant } from './mutant.js';

/** Validates with `Number.isInteger(Number(raw))`, then reads with `parseInt(raw, 10)`: `1e3` passes as 1000 and is read as 1. */
export default defineMutant({
  description: 'accepts exponent spellings such as limit=1e1 but reads them with parseInt, as 1',
  breaks: { 'PAG-10': 'warn' },
  modify: ({ behaviour }) => {
    behaviour.parsePageParam = (raw, name) => {
      if (typeof raw !== 'string' || raw.trim() === '' || /^[0-9]+$/.test(raw)) return parsePageParam(raw, name);
      if (!Number.isInteger(Number(raw))) return { ok: false, message: `${name} must be an integer.` };
      const read = parseInt(raw, 10);
      return Number.isNaN(read) ? { ok: false, message: `${name} must be an integer.` } : parsePageParam(String(read), name);
    };
  },
});
