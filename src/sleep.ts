import { currentClock } from './clock.js';

/** Resolves after `ms` milliseconds of the suite's clock (`clock.ts`): the one wait every module uses. */
export function sleep(ms: number): Promise<void> {
  return currentClock().sleep(Math.max(0, ms));
}
