import { defineVariant } from './variant.js';

/** Keys start with another fixed prefix, declared in the profile (the reference issues it). */
export default defineVariant({
  description: 'issues keys that start with "k_"',
  openPoint: 'key-prefix',
  atRisk: ['AUTH-2', 'AUTH-3', 'AUTH-5', 'KEY-1', 'KEY-3', 'KEY-4'],
  profile: (p) => ({ ...p, keyPrefix: 'k_' }),
});
