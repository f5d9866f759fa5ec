import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the pentest report flagged that the API hashes whatever token a client sends,
 * so an 8 KB Authorization header costs a full SHA-256 of 8 KB on every request (a cheap CPU
 * amplification). The fix caps the work by hashing only the first KEY_LENGTH characters of the
 * token (prefix + 32 secret characters, the length of every issued key), on the reasoning that "a
 * longer token cannot be a valid key anyway". Instead of rejecting longer tokens, the slice makes
 * every live key followed by any extra characters authenticate as that key. Tokens that are too
 * short, or have a character changed, are still refused, so the happy and unhappy paths the
 * reviewer tried both looked right.
 */
export default defineMutant({
  description:
    'The key lookup hashes only the first prefix+32 characters of the presented token, so a live key with extra characters appended still authenticates instead of yielding 401.',
  breaks: { 'AUTH-3': 'fail' },
  modify: (reference) => {
    const { store } = reference.state;
    const KEY_LENGTH = store.keyPrefix.length + 32;
    const findKey = store.findKey.bind(store);
    store.findKey = (token) => findKey(token.length > KEY_LENGTH ? token.slice(0, KEY_LENGTH) : token);
  },
});
