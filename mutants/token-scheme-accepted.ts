import { defineMutant } from './mutant.js';
import { beforeReference } from './support.js';

/** A legacy client library sent `Token <key>`; the vendor kept accepting it. */
export default defineMutant({
  description: 'accepts the key with the Token scheme as well as with Bearer',
  breaks: { 'AUTH-2': 'fail' },
  modify: (reference) => {
    beforeReference(reference, (req) => {
      const header = req.headers.authorization;
      if (header && /^token +/i.test(header)) req.headers.authorization = header.replace(/^token +/i, 'Bearer ');
    });
  },
});
