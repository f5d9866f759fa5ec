import { defineVariant } from './variant.js';

/**
 * A dedicated deployment with its own per-key ceiling, 150 a window instead of the document's
 * 100, declared in its profile. The reference limits keys at the profile's ceiling and says so in
 * X-RateLimit-Limit; the unauthenticated ceiling stays the document's 20.
 */
export default defineVariant({
  description: 'allows each key 150 requests a window (declared in the profile as limits.perKeyPerMinute) instead of 100',
  openPoint: 'rate-ceiling',
  atRisk: ['RATE-2', 'RATE-3', 'RATE-5', 'RATE-6', 'RATE-8'],
  rateLimits: true,
  profile: (p) => ({ ...p, limits: { ...p.limits, perKeyPerMinute: 150 } }),
});
