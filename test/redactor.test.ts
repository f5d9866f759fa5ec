import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { base64Forms, REDACTED, Redactor, SECRET_PART_LENGTH } from '../src/secrets/redactor.js';
import { RevealedSecrets } from '../src/secrets/revealed-secrets.js';

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

  test('redactBytes on the bytes writes the bytes of what redact writes of the text, for any secrets known', () => {
    // Any character between the pieces (beyond the BMP too), and candidates known whole only, some
    // of them ASCII in their first part only (found by the index, longer in bytes than in characters).
    const candidate = (secret: string) => `${secret}ü`;
    const piece = fc.oneof(body, fc.string({ unit: 'binary', maxLength: 6 }), fc.constantFrom(...secrets).map(candidate));
    const text = fc.array(piece, { maxLength: 4 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(fc.subarray(secrets, { minLength: 1 }), fc.subarray(secrets), text, (known, whole, t) => {
        const r = new Redactor();
        for (const secret of known) r.add(secret, 'sk_');
        for (const secret of whole) r.addWhole(candidate(secret));
        expect(Buffer.from(r.redactBytes(Buffer.from(t))).toString('utf8')).toBe(Buffer.from(r.redact(t)).toString('utf8'));
      }),
      { numRuns: 3000 },
    );
  });

  test('redactBytes finds every use of a key in megabytes of a log, and hands back a clean text as it is', () => {
    const r = new Redactor();
    r.add(secrets[0], 'sk_');
    const entry = (i: number) => `{"authorization": "Bearer ${secrets[0]}", "url": "/records?page=${i}", "hint": "${secrets[0]!.slice(-9)}"}\n`;
    const log = Buffer.from(Array.from({ length: 20_000 }, (_, i) => entry(i)).join(''));
    const redacted = Buffer.from(r.redactBytes(log)).toString('utf8');
    expect(redacted).toBe(r.redact(log.toString('utf8')));
    expect(redacted.split(REDACTED)).toHaveLength(40_001);
    expect(r.leaks(redacted)).toBe(false);
    const clean = Buffer.from(redacted);
    expect(r.redactBytes(clean)).toBe(clean);
  });

  test('finds a part of a secret in a large body without decoding it, and nothing in a clean one', () => {
    const r = new Redactor();
    r.add(secrets[0], 'sk_');
    const clean = Buffer.from(JSON.stringify({ items: Array.from({ length: 20_000 }, (_, i) => ({ id: `rec_${i}` })) }));
    expect(r.leaksIn(clean)).toBe(false);
    const leaky = Buffer.concat([clean, Buffer.from(secrets[0]!.slice(10, 18))]);
    expect(r.leaksIn(leaky)).toBe(true);
  });

  test('redact and leaks, searching through the index, answer as patterns of every form and every part do', () => {
    fc.assert(
      fc.property(fc.subarray(secrets, { minLength: 1 }), body, (known, text) => {
        const r = new Redactor();
        for (const secret of known) r.add(secret, 'sk_');
        const expected = byPatterns(known, 'sk_');
        expect(r.redact(text)).toBe(expected.redact(text));
        expect(r.leaks(text)).toBe(expected.leaks(text));
      }),
      { numRuns: 2000 },
    );
  });
});

test('redactDeep redacts each string of a value, names included, as a JSON copy of it', () => {
  const r = new Redactor();
  r.add(KEY, 'sk_');
  const piece = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constant(KEY),
    fc.nat(20).map((from) => KEY.slice(from, from + 10)),
  );
  const text = fc.array(piece, { maxLength: 4 }).map((pieces) => pieces.join(''));
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 4 }),
    ),
  }));
  fc.assert(
    fc.property(value, (v) => {
      const expected = JSON.parse(JSON.stringify(v), (_name, item: unknown) => (typeof item === 'string' ? r.redact(item) : item));
      expect(r.redactDeep(v)).toEqual(expected);
    }),
    { numRuns: 500 },
  );
  const odd = JSON.parse(`{"__proto__": "${KEY}", "x-${KEY}": [1, null], "when": 1}`);
  expect(r.redactDeep({ ...odd, at: new Date(0), gone: undefined })).toEqual(
    JSON.parse(`{"__proto__": "${REDACTED}", "x-${REDACTED}": [1, null], "when": 1, "at": "1970-01-01T00:00:00.000Z"}`),
  );
});

/** Redaction as regular expressions do it, for comparison: whole forms first, then parts extended as far as they follow a secret. */
function byPatterns(secrets: readonly string[], prefix: string) {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // No string at all: a pattern that never matches (an empty one would match everywhere).
  const alternation = (strings: string[]) =>
    strings.length === 0
      ? /(?!)/g
      : new RegExp(
          [...new Set(strings)]
            .sort((a, b) => b.length - a.length)
            .map(escape)
            .join('|'),
          'g',
        );
  // After the prefix, and after what a secret shares at its start with another (the product's rule).
  const shared = (a: string, b: string) => {
    let n = 0;
    while (n < a.length && n < b.length && a[n] === b[n]) n++;
    return n;
  };
  const bodies = secrets.map((s, i) => s.slice(Math.max(prefix.length, ...secrets.map((o, j) => (j === i ? 0 : shared(s, o))))));
  const whole = alternation(secrets.flatMap((s) => [s, encodeURIComponent(s), ...base64Forms(s)]));
  const part = alternation(
    bodies.flatMap((b) => Array.from({ length: Math.max(0, b.length - SECRET_PART_LENGTH + 1) }, (_, i) => b.slice(i, i + SECRET_PART_LENGTH))),
  );
  return {
    leaks: (text: string) => new RegExp(whole.source).test(text) || new RegExp(part.source).test(text),
    redact: (text: string) => {
      const rest = text.replace(whole, REDACTED);
      let out = '';
      let from = 0;
      part.lastIndex = 0;
      for (let match = part.exec(rest); match; match = part.exec(rest)) {
        let n = match[0].length;
        for (const b of bodies) {
          for (let k = b.indexOf(match[0]); k >= 0; k = b.indexOf(match[0], k + 1)) {
            let m = match[0].length;
            while (k + m < b.length && rest[match.index + m] === b[k + m]) m++;
            n = Math.max(n, m);
          }
        }
        out += rest.slice(from, match.index) + REDACTED;
        from = part.lastIndex = match.index + n;
      }
      return out + rest.slice(from);
    },
  };
}

describe('a prefix the profile does not declare', () => {
  // Hex secrets behind a short prefix, as the blind Python implementation makes them: two keys share
  // `gmk_` and, one run in some thirty, their first four digits too.
  const main = 'gmk_77e1c0a9d2b34f5e6a7b8c9d0e1f2a3b';
  const earlier = 'gmk_3f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c';
  const later = 'gmk_3f9ad41e90c7b2a85f63e0d19c4b7a26';

  test("a new key's creation response, which shows the new key, holds no part of an earlier key that shares its start", () => {
    const revealed = new RevealedSecrets(null);
    revealed.addConfigured(main);
    revealed.add(earlier);
    expect(revealed.leaksIn(Buffer.from(`{"token": "${later}"}`), '')).toEqual([]);
    // Eight characters of the earlier key past what the keys share are still a leak, and told to that key.
    expect(revealed.leaksIn(Buffer.from(`{"hint": "${earlier.slice(12, 20)}"}`), '')).toEqual([{ secret: 0, run: 8 }]);
  });

  test('the redactor keeps what keys share at their start, and redacts the rest', () => {
    const r = new Redactor();
    for (const secret of [main, earlier]) r.add(secret, null);
    expect(r.leaks(`{"token": "${later}"}`)).toBe(false);
    expect(r.redact(`hint ${earlier.slice(12, 20)}`)).toBe(`hint ${REDACTED}`);
    expect(r.redact(`whole ${earlier}`)).toBe(`whole ${REDACTED}`);
  });
});
