import type fc from 'fast-check';
import { canonicalInteger } from './canonicalInteger.js';
import { nonInteger } from './nonInteger.js';
import type { QueryValue, Spelling } from './queryValue.js';
import { unusualInteger } from './unusualInteger.js';

export interface PageParamConstraints {
  /** The last page of the collection at the limit the requests use. */
  readonly lastPage: number;
  readonly spelling: Spelling;
}

/**
 * Raw values of `page` (API document, Pagination parameters: 1-indexed, default 1), near 1 and the
 * last page. Canonical values stop at the last page: a page past the end may be answered two
 * ways (PAG-9) and is judged there, not as a bound.
 */
export function pageParam({ lastPage, spelling }: PageParamConstraints): fc.Arbitrary<QueryValue> {
  const bounds = [1n, BigInt(lastPage)];
  if (spelling === 'canonical') return canonicalInteger(bounds).filter((value) => value.readings[0]! <= BigInt(lastPage));
  if (spelling === 'unusual') return unusualInteger(bounds, 1n);
  return nonInteger();
}
