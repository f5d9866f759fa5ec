import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LIMIT_DEFAULT, limitParam } from '../suites/arbitraries/limitParam.js';
import { nonInteger } from '../suites/arbitraries/nonInteger.js';
import { pageParam } from '../suites/arbitraries/pageParam.js';
import { decimal, rawQueryOf, type QueryValue } from '../suites/arbitraries/queryValue.js';

/** A deliberately lenient reader: the numbers a server could defensibly read from one raw value. */
function lenientRead(raw: string, fallback: bigint): bigint | null {
  const digits = raw.replace(/[\u0660-\u0669\u0966-\u096f\uff10-\uff19]/g, (c) => {
    const code = c.codePointAt(0)!;
    const zero = [0x0660, 0x0966, 0xff10].find((z) => code >= z && code <= z + 9)!;
    return String(code - zero);
  });
  const text = digits.trim();
  if (raw === '') return fallback;
  if (/^[+-]?0[xX][0-9a-fA-F]+$/.test(text)) return BigInt(text.replace(/^\+/, ''));
  const exp = /^([+-]?)([0-9]+)(?:\.(0+))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (!exp) return null;
  const [, sign, whole, , power] = exp;
  let value = BigInt(whole!);
  const p = Number(power ?? 0);
  if (p >= 0) value *= 10n ** BigInt(p);
  else {
    const div = 10n ** BigInt(-p);
    if (value % div !== 0n) return null;
    value /= div;
  }
  return sign === '-' ? -value : value;
}

const sample = <T>(arbitrary: fc.Arbitrary<T>, n = 2000) => fc.sample(arbitrary, { numRuns: n, seed: 42 });

describe('pagination arbitraries', () => {
  test('canonical values are plain decimals of their one reading', () => {
    for (const value of sample(limitParam({ spelling: 'canonical' }))) {
      expect(value.raw).toEqual([decimal(value.readings[0]!)]);
      expect(value.raw[0]).toMatch(/^(0|-?[1-9][0-9]*)$/);
    }
  });

  test('canonical pages never pass the last page, and include 1, 0 and negatives', () => {
    const values = sample(pageParam({ lastPage: 250, spelling: 'canonical' })).map((v) => v.readings[0]!);
    expect(values.every((n) => n <= 250n)).toBe(true);
    for (const expected of [1n, 0n, 250n, 249n]) expect(values).toContain(expected);
    expect(values.some((n) => n < -(2n ** 53n))).toBe(true);
  });

  test('limits come near 1, 100, 10000, 2^31 and 2^53', () => {
    const values = new Set(sample(limitParam({ spelling: 'canonical' }), 4000).map((v) => v.readings[0]!));
    for (const expected of [0n, 1n, 2n, 99n, 100n, 101n, 9999n, 10_000n, 10_001n, 2n ** 31n, 2n ** 53n + 1n]) expect(values).toContain(expected);
  });

  test('every unusual spelling spells exactly one of its readings', () => {
    for (const value of sample(limitParam({ spelling: 'unusual' }), 4000)) {
      const read = value.raw.map((raw) => lenientRead(raw, LIMIT_DEFAULT));
      for (const n of read) expect(value.readings, `${JSON.stringify(value.raw)} (${value.form})`).toContain(n);
    }
  });

  test('unusual spellings cover every form PAG-10 lists', () => {
    const forms = new Set(sample(pageParam({ lastPage: 250, spelling: 'unusual' }), 4000).map((v) => v.form));
    for (const form of [
      'leading zeros',
      'plus sign',
      'whitespace',
      'exponent',
      'hex',
      'zero fraction',
      'unicode digits',
      'repeated parameter',
      'repeated parameter, two values',
      'empty',
    ]) {
      expect(forms).toContain(form);
    }
  });

  test('no value that is "no integer at all" can be read as an integer', () => {
    for (const value of sample(nonInteger(), 4000)) {
      expect(value.readings).toEqual([]);
      expect(lenientRead(value.raw[0]!, 0n), JSON.stringify(value.raw)).toBeNull();
    }
  });

  test('the raw query percent-encodes each occurrence so the server sees it as generated', () => {
    const value: QueryValue = { raw: ['+5', ' 5'], spelling: 'unusual', readings: [5n], form: 'test' };
    expect(rawQueryOf('limit', value)).toBe('limit=%2B5&limit=%205');
  });
});
