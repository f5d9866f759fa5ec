import { defineVariant } from './variant.js';

/** A deployment whose keys have a prefix that its profile does not declare (the suite infers it). */
export default defineVariant({
  description: 'issues keys that all start with "sk_" while the profile leaves the prefix undeclared',
  openPoint: 'key-prefix',
  atRisk: ['KEY-4', 'AUTH-2', 'KEY-3'],
  profile: (p) => ({ ...p, keyPrefix: null }),
});
