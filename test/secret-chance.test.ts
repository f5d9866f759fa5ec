import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { alphabetOf, beyondChance, chanceOf, CHANCE_BOUND, leakingTexts, shapeOf } from '../src/secrets/chance.js';
import { Redactor } from '../src/secrets/redactor.js';
import { RevealedSecrets } from '../src/secrets/revealed-secrets.js';

/** Hex digits drawn the same way every time: the tests must not meet a coincidence of their own. */
const hex = (seed: string, length: number) => {
  let out = '';
  for (let i = 0; out.length < length; i++) out += createHash('sha256').update(`${seed}:${i}`).digest('hex');
  return out.slice(0, length);
};

/**
 * A run as the blind Python implementation answers it (variants/blind/): 43 keys of `gmk_` and 48
 * hex digits, and 321 ids of 12 hex digits on its pages, repeated as lists are (some 10,000 runs of
 * hex in all, measured on one run of the suite).
 */
const KEYS = Array.from({ length: 43 }, (_, i) => `gmk_${hex(`key ${i}`, 48)}`);
const IDS = Array.from({ length: 321 }, (_, i) => `sub_${hex(`id ${i}`, 12)}`);
const PAGES = Array.from({ length: 30 }, (_, p) =>
  JSON.stringify({ items: IDS.slice((p * 11) % 300, ((p * 11) % 300) + 20).map((id) => ({ id, taxonomy_id: 'tax_c43de0b4a06b' })) }),
);

function revealed(): RevealedSecrets {
  const secrets = new RevealedSecrets('gmk_');
  for (const key of KEYS) secrets.add(key);
  return secrets;
}

const scanned = (secrets: RevealedSecrets, texts: readonly string[]) => texts.flatMap((text) => secrets.leaksIn(Buffer.from(text), ''));

describe('a part of a secret that chance explains is no leak', () => {
  test('an id of 12 hex digits that shares 8 with one key of 48 hex digits is what chance does about once in a thousand runs', () => {
    const secrets = revealed();
    // The key's digits 20 to 27 in a submission's id, as chance put them there in the run that failed.
    const coincidence = JSON.stringify({ items: [{ id: `sub_${KEYS[7]!.slice(4 + 20, 4 + 28)}9c1e` }] });
    const texts = [...PAGES, ...Array.from({ length: 16 }, () => coincidence)];
    const matches = scanned(secrets, texts);
    expect(matches).toEqual(Array.from({ length: 16 }, () => ({ secret: 7, run: 8 })));
    const odds = chanceOf(matches, secrets.shapes(), () => texts);
    expect(odds).toBeGreaterThan(1e-4);
    expect(odds).toBeLessThan(1e-2);
    expect(beyondChance(matches, secrets.shapes(), () => texts)).toBe(false);
  });

  test('a hint of the last 12 hex digits of one key is a leak', () => {
    const secrets = revealed();
    const texts = [...PAGES, JSON.stringify({ items: [{ id: 'key_1', hint: `…${KEYS[3]!.slice(-12)}` }] })];
    const matches = scanned(secrets, texts);
    expect(matches).toEqual([{ secret: 3, run: 12 }]);
    expect(chanceOf(matches, secrets.shapes(), () => texts)).toBeLessThan(CHANCE_BOUND / 100);
  });

  test('8 hex digits of each of two keys, as a key list with hints shows them, are a leak', () => {
    const secrets = revealed();
    const texts = [...PAGES, JSON.stringify({ items: [KEYS[1], KEYS[2]].map((key) => ({ hint: `…${key!.slice(-8)}` })) })];
    const matches = scanned(secrets, texts);
    expect(matches.map((m) => m.secret).sort()).toEqual([1, 2]);
    expect(beyondChance(matches, secrets.shapes(), () => texts)).toBe(true);
  });

  test('a key shown whole, or base64-encoded, is a leak', () => {
    const secrets = revealed();
    for (const shown of [KEYS[5]!, Buffer.from(`${KEYS[5]}:`).toString('base64')]) {
      const texts = [...PAGES, JSON.stringify({ echo: shown })];
      const matches = scanned(secrets, texts);
      // Its whole part: the digits past `gmk_` and past what it shares at its start with another key.
      expect(matches).toEqual([{ secret: 5, run: secrets.shapes()[5]!.part }]);
      expect(secrets.shapes()[5]!.part).toBeGreaterThan(40);
      expect(beyondChance(matches, secrets.shapes(), () => texts)).toBe(true);
    }
  });

  test('8 characters of a key of 32 base64url characters, as the reference makes them, are a leak', () => {
    const key = 'gmk_Asusta4xgNsmTsgEl5ghfTvO-F7VYxdr9aQ2';
    const secrets = new RevealedSecrets('gmk_');
    secrets.add(key);
    const texts = [...PAGES, `{"note":"${key.slice(10, 18)}"}`];
    const matches = scanned(secrets, texts);
    expect(matches).toEqual([{ secret: 0, run: 8 }]);
    expect(beyondChance(matches, secrets.shapes(), () => texts)).toBe(true);
  });

  test('a body cut short for the log counts what was not kept as runs of its own', () => {
    const secrets = revealed();
    const texts = [...PAGES, `{"hint":"${KEYS[3]!.slice(-11)}"}`];
    const matches = scanned(secrets, texts);
    expect(beyondChance(matches, secrets.shapes(), () => texts)).toBe(true);
    expect(beyondChance(matches, secrets.shapes(), () => texts, 1e9)).toBe(false);
  });

  test("one check's texts: the indices of those that show a leak, none where chance explains them", () => {
    const known = new Redactor();
    for (const key of KEYS) known.add(key, 'gmk_');
    const coincidence = `{"id":"key_${KEYS[0]!.slice(10, 18)}ab12"}`;
    expect(leakingTexts(known, [PAGES[0]!, coincidence])).toEqual([]);
    expect(leakingTexts(known, [PAGES[0]!, coincidence, `{"hint":"${KEYS[9]!.slice(-16)}"}`])).toEqual([1, 2]);
  });
});

describe('the alphabet a secret is drawn from', () => {
  test('is the smallest usual one that holds every character of its part', () => {
    expect(alphabetOf('20261201')).toBe('digits');
    expect(alphabetOf('9f86d081884c7d65')).toBe('hex');
    expect(alphabetOf('9F86D081884C7D65')).toBe('HEX');
    expect(alphabetOf('MFRGGZDFMZTWQ2LK')).toBe('base32');
    expect(alphabetOf('k3x9z0qwe8')).toBe('base36');
    expect(alphabetOf('Asusta4xgNsm')).toBe('base62');
    expect(alphabetOf('Asusta4x-gN_sm')).toBe('base64url');
    expect(alphabetOf('Asu+ta4x/gNsm=')).toBe('base64');
    expect(alphabetOf('a!b#c$d%')).toBe('printable');
    expect(shapeOf('ключ-ключ')).toEqual({ part: 9, alphabet: 'other', size: 5 });
  });
});
