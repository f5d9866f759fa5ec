import type fc from 'fast-check';
import { canonicalInteger } from './canonicalInteger.js';
import { nonInteger } from './nonInteger.js';
import type { QueryValue, Spelling } from './queryValue.js';
import { unusualInteger } from './unusualInteger.js';

/** API document, Pagination parameters: limit 1 to 10000 inclusive, default 100. */
export const LIMIT_MIN = 1n;
export const LIMIT_DEFAULT = 100n;
export const LIMIT_MAX = 10_000n;

/** Raw values of `limit` near its bounds and its default, of one spelling class. */
export function limitParam({ spelling }: { readonly spelling: Spelling }): fc.Arbitrary<QueryValue> {
  const bounds = [LIMIT_MIN, LIMIT_DEFAULT, LIMIT_MAX];
  if (spelling === 'canonical') return canonicalInteger(bounds);
  if (spelling === 'unusual') return unusualInteger(bounds, LIMIT_DEFAULT);
  return nonInteger();
}
