import { defineMutant } from './mutant.js';

/** `const limit = query.limit ?? 50`: a framework's default page size left in place of the document's 100. */
export default defineMutant({
  description: 'serves 50 items per page when limit is absent, where the document says 100',
  breaks: { 'PAG-2': 'fail' },
  modify: ({ behaviour }) => {
    const faithful = behaviour.parsePageParam;
    behaviour.parsePageParam = (raw, name) => (name === 'limit' && raw === undefined ? { ok: true, value: 50n } : faithful(raw, name));
  },
});
