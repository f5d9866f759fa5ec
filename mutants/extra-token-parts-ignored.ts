import { defineMutant } from './mutant.js';
import { beforeReference } from './support.js';

/** The header is split on spaces and the second word taken: whatever follows is ignored. */
export default defineMutant({
  description: 'reads the word after Bearer and ignores extra parts after the token',
  breaks: { 'AUTH-2': 'fail' },
  modify: (reference) => {
    beforeReference(reference, (req) => {
      const match = /^(bearer +\S+) +\S.*$/i.exec(req.headers.authorization ?? '');
      if (match) req.headers.authorization = match[1];
    });
  },
});
