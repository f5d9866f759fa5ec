import { defineVariant } from './variant.js';

/** The profile does not say which member of the creation response holds the key: the suite must find it. */
export default defineVariant({
  description: 'reveals the key in a member the profile does not name, beside the name, id and times',
  openPoint: 'key-operations',
  atRisk: ['KEY-1', 'KEY-2', 'KEY-4', 'RATE-3', 'RATE-6'],
  profile: (p) => ({ ...p, apiKeyFields: { ...p.apiKeyFields, secret: null } }),
  rateLimits: true,
});
