import { describe, expect, test } from 'vitest';
import type { Exchange } from '../src/http/exchange.js';
import { keysOfRun } from '../suites/support/key-list-settled.js';

const exchange = (
  method: string,
  path: string,
  status: number,
  body: { request?: unknown; response?: unknown } = {},
  auth: Exchange['auth'] = 'main',
): Exchange => ({
  startedAt: new Date(0).toISOString(),
  durationMs: 1,
  auth,
  bucket: 'key:a',
  request: { method, url: `http://t/base${path}`, headers: {}, ...(body.request !== undefined ? { body: JSON.stringify(body.request) } : {}) },
  response: { status, headers: {}, body: JSON.stringify(body.response ?? {}), bytes: 2, truncated: false, json: 'ok' },
});

describe('the keys a run made before the key list is walked', () => {
  test('keys created and answered 2xx are live by name until a 2xx deletion of their id; a refused creation or deletion changes nothing', () => {
    const log = [
      exchange('POST', '/api/v1/api_keys', 201, { request: { name: 'pool-1' }, response: { id: 'k1' } }),
      exchange('POST', '/api/v1/api_keys', 201, { request: { name: 'probe' }, response: { id: 'k2' } }),
      exchange('DELETE', '/api/v1/api_keys/k2', 204),
      exchange('POST', '/api/v1/api_keys', 422, { request: { name: 'refused' } }),
      exchange('DELETE', '/api/v1/api_keys/k1', 404),
      // The other account's key is not in this account's list.
      exchange('POST', '/api/v1/api_keys', 201, { request: { name: 'theirs' }, response: { id: 'k9' } }, 'other'),
    ];
    expect(keysOfRun(log, '/api/v1/api_keys/{id}', 'id')).toEqual({ live: [{ name: 'pool-1' }], deleted: ['k2'] });
  });

  test('without a key path, no deletion is known, and every key created stays live', () => {
    const log = [exchange('POST', '/api/v1/api_keys', 201, { request: { name: 'a' }, response: { id: 'k1' } }), exchange('DELETE', '/api/v1/api_keys/k1', 204)];
    expect(keysOfRun(log, null, 'id')).toEqual({ live: [{ name: 'a' }], deleted: [] });
  });
});
