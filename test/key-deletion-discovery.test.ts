import { expect, test } from 'vitest';
import { referenceProfile } from '../reference/server.js';
import { notFound } from '../reference/errors.js';
import { collectionForms, deletionCandidates } from '../src/keys/deletion.js';
import { documentOnly, runAgainstReference } from './support/cli.js';

// Issue 24: where no key path is declared, the run finds where keys are deleted from what the API
// says before it creates any key but its one probe.

test('a key deleted at the path its creation response links to (_links.self.href) is found there, and no key is left', async () => {
  const base = referenceProfile();
  const { report, stdout } = await runAgainstReference(
    {
      // Keys neither listed nor deleted where the profile or the convention would put them.
      profile: { ...base, paths: { ...base.paths, apiKey: null, apiKeyList: null } },
      modify: ({ app, state }) => {
        app.addHook('onSend', async (req, _reply, payload) => {
          if (req.method !== 'POST' || !req.url.startsWith('/api/v1/api_keys') || typeof payload !== 'string') return payload;
          const body = JSON.parse(payload) as Record<string, unknown>;
          if (typeof body.id !== 'string') return payload;
          return JSON.stringify({ ...body, _links: { self: { href: `/api/v1/credentials/${body.id}` } } });
        });
        app.delete<{ Params: { id: string } }>('/api/v1/credentials/:id', async (req, reply) => {
          const key = req.account.keys.get(req.params.id);
          if (!key || key.revokedAtMs !== null) return notFound(reply, 'API key');
          key.revokedAtMs = state.now();
          return reply.code(204).send();
        });
      },
    },
    ['--only', 'KEY'],
    documentOnly,
  );
  expect(stdout).toContain('keys the run creates are deleted at /api/v1/credentials/{id}');
  const keys = report.resources.created.filter((e) => e.kind === 'api_key');
  expect(keys.length).toBeGreaterThan(1);
  expect(report.resources.removed.filter((e) => e.kind === 'api_key').length).toBe(keys.length);
  expect(report.because).not.toContain('(key left)');
}, 120_000);

test('candidates: a declared path, then the Location header and links holding the id, then the forms of the key list', () => {
  const known = { keyPath: null, keyList: '/api/v1/tokens' };
  const candidates = deletionCandidates(
    known,
    'https://api.example.com',
    'https://api.example.com/api/v1/k/a%20b',
    { url: 'https://elsewhere.example/api/v1/x/a b' },
    'a b',
  );
  expect(candidates.slice(0, 4)).toEqual(['/api/v1/k/{id}', '/api/v1/tokens/{id}', '/api/v1/token/{id}', '/api/v1/api_keys/{id}']);
  expect(collectionForms('/api/v1/api_keys')).toEqual(expect.arrayContaining(['/api/v1/api_key', '/api/v1/keys', '/api/v1/key', '/api/v1/api-keys']));
});
