import type { Profile } from '../src/profile/profile.js';
import type { Behaviour } from './behaviour.js';
import type { RateLimiter } from './rate-limit.js';
import type { Store } from './store.js';

/** What the routes share. */
export interface ReferenceState {
  readonly profile: Profile;
  readonly store: Store;
  readonly limiter: RateLimiter;
  readonly behaviour: Behaviour;
  readonly now: () => number;
}
