import { defineVariant } from './variant.js';

/** Key responses use other member names, declared in the profile (the reference honours them). */
export default defineVariant({
  description: 'names the members of key responses "key_uid", "token", "display_name" and "last_seen_at"',
  openPoint: 'key-operations',
  atRisk: ['KEY-1', 'KEY-2', 'KEY-3', 'KEY-4', 'KEY-5', 'KEY-6', 'KEY-7', 'AUTH-3', 'AUTH-8'],
  profile: (p) => ({ ...p, apiKeyFields: { id: 'key_uid', secret: 'token', name: 'display_name', lastUsedAt: 'last_seen_at' } }),
});
