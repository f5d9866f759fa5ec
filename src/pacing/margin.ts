import { isLoopback } from '../http/loopback.js';

/**
 * Added to every wait for a window's reset (`PacerOptions.marginMs`), for the clocks of the suite
 * and the target: a target on this machine shares its clock; a remote one may be a second apart.
 */
export function clockMarginMs(baseUrl: string): number {
  return isLoopback(baseUrl) ? 30 : 1000;
}
