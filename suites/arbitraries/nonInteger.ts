import fc from 'fast-check';
import type { QueryValue } from './queryValue.js';

/** Words and symbols a careless parser turns into a number (NaN, 1, 0, Infinity...). */
const WORDS = [
  'abc',
  'ten',
  'NaN',
  'Infinity',
  '-Infinity',
  'null',
  'undefined',
  'true',
  'false',
  '[]',
  '{}',
  '1a',
  'a1',
  '12abc',
  '0x',
  '--1',
  '1-',
  '½',
  '١٫٥',
  'e3',
  '.',
  '-',
  '+',
];

/**
 * Values that are no integer at all (PAG-5): text, fractions with a non-zero fractional part, and
 * words. Nothing here spells an integer in any reading, so the only right answer is 422.
 */
export function nonInteger(): fc.Arbitrary<QueryValue> {
  const fraction = fc
    .tuple(fc.integer({ min: -20_000, max: 20_000 }), fc.integer({ min: 1, max: 999 }))
    .map(([whole, part]) => `${whole}.${String(part).padStart(3, '0')}`)
    .filter((raw) => !/\.0+$/.test(raw));
  const shortFraction = fc.constantFrom('0.5', '1.5', '2.5', '.5', '99.9', '100.1', '10000.5', '-0.5');
  const text = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzXYZ_-!'.split('')), minLength: 1, maxLength: 12 });
  return fc
    .oneof(
      { arbitrary: fraction.map((raw) => ({ raw, form: 'fraction' })), weight: 3 },
      { arbitrary: shortFraction.map((raw) => ({ raw, form: 'fraction' })), weight: 2 },
      { arbitrary: fc.constantFrom(...WORDS).map((raw) => ({ raw, form: 'word' })), weight: 3 },
      { arbitrary: text.map((raw) => ({ raw, form: 'text' })), weight: 2 },
    )
    .filter(({ raw }) => !/^[+-]?[0-9]+$/.test(raw))
    .map(({ raw, form }) => ({ raw: [raw], spelling: 'none' as const, readings: [], form }));
}
