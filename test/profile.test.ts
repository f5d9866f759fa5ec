import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { notRunCause } from '../src/clauses/applicability.js';
import { ConformanceError } from '../src/errors.js';
import { loadProfile, parseProfile } from '../src/profile/profile.js';
import { ROOT } from './support/cli.js';

const reference = () => JSON.parse(readFileSync(`${ROOT}profiles/reference.json`, 'utf8')) as Record<string, any>;

describe('profile', () => {
  test('the shipped reference and document-only profiles validate', () => {
    expect(loadProfile(`${ROOT}profiles/reference.json`).profile.keyPrefix).toBe('sk_');
    expect(loadProfile(`${ROOT}profiles/document.json`).profile.paths.record).toBeNull();
  });

  test('a path outside /api/v1/ is refused', () => {
    const data = reference();
    data.paths.record = '/records/{id}';
    expect(() => parseProfile(data)).toThrow(ConformanceError);
  });

  test('an unknown member is refused, so that a typo is not silently ignored', () => {
    expect(() => parseProfile({ ...reference(), keyPrefx: 'sk_' })).toThrow(/keyPrefx/);
  });

  test('an unreadable or non-JSON file is a one-line profile error', () => {
    expect(() => loadProfile('/no/such/profile.json')).toThrow(/cannot read/);
    const file = join(mkdtempSync(join(tmpdir(), 'profile-')), 'bad.json');
    writeFileSync(file, '{"name": ');
    expect(() => loadProfile(file)).toThrow(expect.objectContaining({ code: 'CONF_PROFILE_INVALID' }));
  });

  test('undeclared facts make the clauses that need them not applicable, never failed', () => {
    const bare = parseProfile({ name: 'bare' });
    const input = { profile: bare, hasOtherAccountKey: false, selection: { only: [], skip: [] }, readOnly: false };
    expect(notRunCause('RES-4', input)).toEqual({ kind: 'undeclared', reason: expect.stringMatching(/retrieval paths/) });
    expect(notRunCause('AUTH-6', input)?.reason).toMatch(/second account/);
    expect(notRunCause('RES-1', input)).toBeNull();
    const full = parseProfile(reference());
    expect(notRunCause('RES-4', { ...input, profile: full, hasOtherAccountKey: true })).toBeNull();
  });

  test("the selection and --read-only leave clauses out as the run's own choice, which makes it incomplete", () => {
    const full = parseProfile(reference());
    const input = { profile: full, hasOtherAccountKey: true, selection: { only: ['GEN'], skip: [] }, readOnly: true };
    expect(notRunCause('RES-1', input)?.kind).toBe('selection');
    expect(notRunCause('GEN-4', input, { writes: true })?.kind).toBe('read-only');
    expect(notRunCause('GEN-1', input)).toBeNull();
  });

  test('limits default to the document figures', () => {
    expect(parseProfile({ name: 'x' }).limits).toEqual({ perKeyPerMinute: 100, unauthenticatedPerMinute: 20, windowSeconds: 60 });
  });
});
