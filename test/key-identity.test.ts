import { describe, expect, test } from 'vitest';
import { inferKeyPrefix } from '../src/keys/prefix.js';
import { secretCandidates } from '../src/keys/secret.js';
import { REDACTED, Redactor } from '../src/secrets/redactor.js';

// Where the profile leaves the key facts open (every remote target without a profile), the run
// finds the key and its prefix itself. A wrong guess used to redact the run's own words.

describe('the key prefix, inferred from the configured keys', () => {
  test('is the common start of two keys, cut back to its last separator', () => {
    expect(inferKeyPrefix(['sk_MSN90mt7hU5xrm4fL-gUfU3Ryh2R4xju', 'sk_ckRflNZ7PQC4LmA66nkSg8PUBDz7-We8'])).toBe('sk_');
    expect(inferKeyPrefix(['sk_live_aB3xyz1234567890', 'sk_live_aQ9xyz0987654321'])).toBe('sk_live_');
    expect(inferKeyPrefix(['AKIA7F3BXQ2J9L0P', 'AKIAZZ81MM0Q2W3E'])).toBe('AKIA');
  });

  test('is the leading short groups of a single key, and nothing for a key with no separator', () => {
    expect(inferKeyPrefix(['gmk_65b936ba525568762fbca734a27d00b3c481e046acab1cce', null])).toBe('gmk_');
    expect(inferKeyPrefix(['acme-live-7f3b9c0d1e2f3a4b5c6d7e8f'])).toBe('acme-live-');
    expect(inferKeyPrefix(['sk_MSN90mt7hU5xrm4fL-gUfU3Ryh2R4xju'])).toBe('sk_');
    expect(inferKeyPrefix(['7f3b9c0d1e2f3a4b5c6d7e8f9a0b'])).toBeNull();
    expect(inferKeyPrefix([null, undefined])).toBeNull();
  });

  test('keeps the prefix every key shares out of the windows of a secret, so a new key is no leak of the last', () => {
    const previous = 'pk_live_9Zr2LmQ8xT4vB7nK1cY6';
    const next = 'pk_live_Hq3Wd0sJ5fR8gE2uA9pM';
    const withPrefix = new Redactor();
    withPrefix.add(previous, inferKeyPrefix(['pk_live_Aa1Bb2Cc3Dd4Ee5Ff6Gg7', 'pk_live_Zz9Yy8Xx7Ww6Vv5Uu4Tt3']));
    expect(withPrefix.leaks(`{"key": "${next}"}`)).toBe(false);
    const without = new Redactor();
    without.add(previous, null);
    expect(without.leaks(`{"key": "${next}"}`)).toBe(true);
  });
});

describe('candidates for the key in a creation response', () => {
  const created = {
    id: 'key_0042ab',
    name: 'conformance-20261123T1057-abc123-created',
    created_at: '2026-11-23T10:57:01.123Z',
    last_used_at: null,
    hint: '…xju',
    status: 'active',
    token: 'sk_MSN90mt7hU5xrm4fL-gUfU3Ryh2R4xju',
  };

  test('are never the name sent, an id, a time or a hint, and those that start like the key come first', () => {
    expect(secretCandidates(created, { member: null, sentName: created.name, prefix: 'sk_' })).toEqual([created.token]);
    const nested = { data: { ...created, token: undefined, secret: { value: 'Zq81mNf0Lp2R7tYw' } } };
    expect(secretCandidates(nested, { member: null, sentName: created.name, prefix: 'sk_' })).toEqual(['Zq81mNf0Lp2R7tYw']);
  });

  test('are the declared member only, where the profile names it', () => {
    expect(secretCandidates(created, { member: 'token', sentName: created.name, prefix: null })).toEqual([created.token]);
    expect(secretCandidates({ ...created, token: '' }, { member: 'token', sentName: created.name, prefix: null })).toEqual([]);
  });

  test('a link to the key is never a candidate, so that it is neither tried as the key nor redacted from request URLs', () => {
    const linked = {
      id: 'e7a5eeec',
      secret: 'Zq81mNf0Lp2R7tYw',
      _links: { self: { href: 'http://127.0.0.1:4000/api/v1/api_keys/e7a5eeec' } },
      path: '/api/v1/api_keys/e7a5eeec',
    };
    expect(secretCandidates(linked, { member: null, sentName: 'n', prefix: null })).toEqual(['Zq81mNf0Lp2R7tYw']);
  });

  test('an id that starts like a key is a candidate after all', () => {
    expect(secretCandidates({ id: 'sk_ZZ81mNf0Lp2R7tYwQQ', name: 'n' }, { member: null, sentName: 'n', prefix: 'sk_' })).toEqual(['sk_ZZ81mNf0Lp2R7tYwQQ']);
  });
});

test('a candidate never seen to authenticate is redacted whole, never by its parts', () => {
  const redactor = new Redactor();
  redactor.addWhole('conformance-20261123T1057-abc123-created');
  expect(redactor.redact('name conformance-20261123T1057-abc123-created')).toBe(`name ${REDACTED}`);
  expect(redactor.redact('verdict: non-conformant')).toBe('verdict: non-conformant');
});
