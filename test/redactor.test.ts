import { describe, expect, test } from 'vitest';
import { REDACTED, Redactor } from '../src/http/redactor.js';

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
