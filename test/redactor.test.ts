import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { REDACTED, Redactor } from '../src/secrets/redactor.js';

const KEY = 'sk_Asusta4xgNsmTsgEl5ghfTvO-F7VYxdr';

describe('redactor', () => {
  const redactor = new Redactor();
  redactor.add(KEY, 'sk_');

  test('redacts a secret raw, URL-encoded and base64-encoded', () => {
    for (const form of [KEY, encodeURIComponent(KEY), Buffer.from(KEY).toString('base64')]) {
      expect(redactor.redact(`before ${form} after`)).toBe(`before ${REDACTED} after`);
    }
  });

  test('redacts any run of eight or more characters of the secret, extended as far as it goes', () => {
    const tail = KEY.slice(-12);
    expect(redactor.redact(`"hint": "${tail}"`)).toBe(`"hint": "${REDACTED}"`);
    expect(redactor.leaks(`xx${KEY.slice(5, 13)}yy`)).toBe(true);
  });

  test('leaves a hint of fewer than eight characters alone', () => {
    expect(redactor.leaks(`…${KEY.slice(-4)}`)).toBe(false);
    expect(redactor.redact(`…${KEY.slice(-7)}`)).toBe(`…${KEY.slice(-7)}`);
  });

  test('redacts inside JSON values', () => {
    expect(redactor.redactDeep({ headers: { authorization: `Bearer ${KEY}` } })).toEqual({ headers: { authorization: `Bearer ${REDACTED}` } });
  });
});

test('a secret shorter than a part is still redacted whole, and nothing else is touched', () => {
  const short = new Redactor();
  short.add('sk_x', null);
  expect(short.redact('key sk_x here')).toBe(`key ${REDACTED} here`);
  expect(short.redact('nothing to see')).toBe('nothing to see');
  expect(short.leaks('nothing to see')).toBe(false);
});

describe('redactor, encoded forms', () => {
  const redactor = new Redactor();
  redactor.add(KEY, 'sk_');

  test('redacts a secret base64-encoded at any byte alignment, as in a Basic header', () => {
    for (const text of [`${KEY}:`, `:${KEY}`, `ab:${KEY}`, `user ${KEY} x`]) {
      for (const encoding of ['base64', 'base64url'] as const) {
        const encoded = Buffer.from(text).toString(encoding);
        expect(redactor.leaks(`Basic ${encoded}`), `${text} as ${encoding}`).toBe(true);
        expect(redactor.redact(`Basic ${encoded}`)).toContain(REDACTED);
      }
    }
  });
});

describe('redactor, bodies in bytes', () => {
  const secrets = ['sk_Q9vLmT2xRk8NwZpA4sYhJc6uEb1GdFo3', 'sk_short7', 'sk_éàü_not_ascii_at_all'];
  /** A body: filler around pieces of the secrets, raw or encoded, cut anywhere. */
  const body = fc
    .array(
      fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.tuple(fc.constantFrom(...secrets), fc.nat(40), fc.integer({ min: 1, max: 40 })).map(([s, from, length]) => s.slice(from, from + length)),
        fc.constantFrom(...secrets).map((s) => Buffer.from(`${s}:`).toString('base64')),
        fc.constantFrom(...secrets).map(encodeURIComponent),
      ),
      { maxLength: 12 },
    )
    .map((pieces) => pieces.join(''));

  test('leaksIn on the bytes answers what leaks answers on the decoded text, for any secrets known', () => {
    fc.assert(
      fc.property(fc.subarray(secrets, { minLength: 1 }), body, (known, text) => {
        const r = new Redactor();
        for (const secret of known) r.add(secret, 'sk_');
        const bytes = Buffer.from(text);
        expect(r.leaksIn(bytes)).toBe(r.leaks(bytes.toString('utf8')));
      }),
      { numRuns: 2000 },
    );
  });

  test('finds a part of a secret in a large body without decoding it, and nothing in a clean one', () => {
    const r = new Redactor();
    r.add(secrets[0], 'sk_');
    const clean = Buffer.from(JSON.stringify({ items: Array.from({ length: 20_000 }, (_, i) => ({ id: `rec_${i}` })) }));
    expect(r.leaksIn(clean)).toBe(false);
    const leaky = Buffer.concat([clean, Buffer.from(secrets[0]!.slice(10, 18))]);
    expect(r.leaksIn(leaky)).toBe(true);
  });
});
