import fc from 'fast-check';
import { integerNear } from './integerNear.js';
import { decimal, type QueryValue } from './queryValue.js';

/** Integers near the given bounds, spelled the plain decimal way (`-1`, `0`, `10001`, `9007199254740993`). */
export function canonicalInteger(bounds: readonly bigint[]): fc.Arbitrary<QueryValue> {
  return integerNear(bounds).map((n) => ({ raw: [decimal(n)], spelling: 'canonical' as const, readings: [n], form: 'decimal' }));
}
