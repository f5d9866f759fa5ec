import { defineMutant } from './mutant.js';
import { beforeReference } from './support.js';

/**
 * A legacy path left in: the key is also read from the `api_key` query parameter, so a request
 * with no Authorization header is served as the key's account.
 */
export default defineMutant({
  description: 'a request with no Authorization header but the key in the api_key query parameter is served as that key',
  breaks: { 'AUTH-1': 'fail' },
  modify: (reference) => {
    beforeReference(reference, (req) => {
      if (req.headers.authorization !== undefined) return;
      const key = new URL(req.url ?? '/', 'http://x').searchParams.get('api_key');
      if (key) req.headers.authorization = `Bearer ${key}`;
    });
  },
});
