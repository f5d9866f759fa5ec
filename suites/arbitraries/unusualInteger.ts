import fc from 'fast-check';
import { integerNear } from './integerNear.js';
import { decimal, type QueryValue } from './queryValue.js';

/** Digit sets other than ASCII: Arabic-Indic, Devanagari, fullwidth. */
const DIGIT_ZEROS = [0x0660, 0x0966, 0xff10] as const;

type Form = (n: bigint) => fc.Arbitrary<{ raw: string[]; form: string } | null>;

const one = (form: string, raw: string) => fc.constant<{ raw: string[]; form: string }>({ raw: [raw], form });

/** Ways to spell the integer n that are not its canonical decimal (PAG-10's list). */
const FORMS: readonly Form[] = [
  (n) =>
    fc
      .integer({ min: 1, max: 3 })
      .map((zeros) => ({ raw: [n < 0n ? `-${'0'.repeat(zeros)}${decimal(-n)}` : `${'0'.repeat(zeros)}${decimal(n)}`], form: 'leading zeros' })),
  (n) => (n >= 0n ? one('plus sign', `+${decimal(n)}`) : fc.constant(null)),
  (n) => fc.constantFrom(` ${decimal(n)}`, `${decimal(n)} `, `\t${decimal(n)}`, ` ${decimal(n)} `).map((raw) => ({ raw: [raw], form: 'whitespace' })),
  (n) => exponent(n),
  (n) =>
    n >= 0n ? fc.constantFrom(`0x${n.toString(16)}`, `0X${n.toString(16).toUpperCase()}`).map((raw) => ({ raw: [raw], form: 'hex' })) : fc.constant(null),
  (n) => fc.constantFrom(`${decimal(n)}.0`, `${decimal(n)}.00`).map((raw) => ({ raw: [raw], form: 'zero fraction' })),
  (n) =>
    fc
      .constantFrom(...DIGIT_ZEROS)
      .map((zero) => ({ raw: [decimal(n).replace(/[0-9]/g, (d) => String.fromCodePoint(zero + Number(d)))], form: 'unicode digits' })),
  (n) => one('repeated parameter', decimal(n)).map((v) => ({ raw: [v.raw[0]!, v.raw[0]!], form: v.form })),
];

/** `1e3`, `5E0`, `120e-1`: an exponent that still spells an integer exactly. */
function exponent(n: bigint): fc.Arbitrary<{ raw: string[]; form: string }> {
  const digits = decimal(n < 0n ? -n : n);
  const sign = n < 0n ? '-' : '';
  const mantissa = digits.replace(/0+$/, '') || '0';
  const power = digits.length - mantissa.length;
  return fc
    .constantFrom(`${sign}${mantissa}e${power}`, `${sign}${mantissa}E${power}`, `${sign}${digits}0e-1`, `${sign}${digits}e0`)
    .map((raw) => ({ raw: [raw], form: 'exponent' }));
}

/**
 * Unusual spellings of integers near the bounds (PAG-10): leading zeros, a plus sign, whitespace,
 * an exponent, hex, `.0`, other digit sets, a repeated parameter (same value, or two values: then
 * either reading is exact), and the empty value (which spells the default).
 */
export function unusualInteger(bounds: readonly bigint[], defaultValue: bigint): fc.Arbitrary<QueryValue> {
  const spelled: fc.Arbitrary<QueryValue | null> = fc
    .tuple(integerNear(bounds), fc.integer({ min: 0, max: FORMS.length - 1 }))
    .chain(([n, index]) => FORMS[index]!(n).map((made) => (made ? { raw: made.raw, spelling: 'unusual' as const, readings: [n], form: made.form } : null)));
  const repeatedTwo = fc
    .tuple(integerNear(bounds), integerNear(bounds))
    .map(([a, b]): QueryValue => ({ raw: [decimal(a), decimal(b)], spelling: 'unusual', readings: [a, b], form: 'repeated parameter, two values' }));
  const empty = fc.constant<QueryValue>({ raw: [''], spelling: 'unusual', readings: [defaultValue], form: 'empty' });
  return fc
    .oneof({ arbitrary: spelled, weight: 8 }, { arbitrary: repeatedTwo, weight: 1 }, { arbitrary: empty, weight: 1 })
    .filter((value): value is QueryValue => value !== null);
}
