import type { ClientHooks } from '../http/client.js';
import type { Profile } from '../profile/profile.js';
import { rateHeaders } from '../http/rate-headers.js';
import { answerTimes } from '../http/server-clock.js';
import { Pacer } from './pacer.js';

/**
 * Client hooks for a command that runs without the run's broker (`init`, `cleanup`): a pacer of
 * its own, fed by the `X-RateLimit-*` headers of every response, so that these commands too never
 * trip a 429 they did not mean to.
 */
export function ownPacing(limits: Profile['limits']): ClientHooks {
  const pacer = new Pacer({ perKey: limits.perKeyPerMinute, anonymous: limits.unauthenticatedPerMinute, windowMs: limits.windowSeconds * 1000 });
  return {
    acquire: (bucket, anonymous) => pacer.acquire(bucket, anonymous),
    record: async (e) => {
      pacer.serverClock.observeExchange(e);
      pacer.observe(e.bucket, e.auth === 'none', e.response?.status ?? null, rateHeaders(e.response?.headers ?? {}), !e.unpaced, answerTimes(e));
    },
  };
}
