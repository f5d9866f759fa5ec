import fc from 'fast-check';

const TWO_53 = 2n ** 53n;

/**
 * Integers where pagination code breaks: each bound and its neighbours, zero and negatives,
 * 2^31 and 2^53 (where int32 and double arithmetic give out) with neighbours, and huge values.
 */
export function integerNear(bounds: readonly bigint[]): fc.Arbitrary<bigint> {
  const edges = [...bounds, 0n, 2n ** 31n, TWO_53, 10n ** 20n, 2n ** 64n];
  return fc.oneof(
    { arbitrary: fc.constantFrom(...edges).chain((edge) => fc.bigInt({ min: edge - 2n, max: edge + 2n })), weight: 4 },
    { arbitrary: fc.bigInt({ min: 1n, max: 300n }), weight: 2 },
    { arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), weight: 1 },
  );
}
