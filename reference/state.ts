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
  /** The server's clock, in ms: every time it writes (Reset, Retry-After, last use) is on it. A variant may set it apart from the machine's. */
  now: () => number;
}
