import { expect, test } from 'vitest';
import { startReference } from '../reference/server.js';
import { HttpClient, ReadOnlyRefusal } from '../src/http/client.js';
import { readReport } from './support/cli.js';
import { describe429s } from './support/rate-evidence.js';
import { runAgainst } from './hostile/run.js';
import { onSimulatedClock, SIMULATED_RUN_ENV } from './support/simulated.js';

// --read-only is for production: whatever suites exist, the run changes nothing on the target.
// Proved on the wire: the reference records every request's method and status.

/** Methods that change nothing (RFC 9110 safe methods). */
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

test('a read-only run sends no request but GET, HEAD or OPTIONS, exhausts no budget, and says it is incomplete', async () => {
  const seen: { method: string; url: string; status: number }[] = [];
  const target = await startReference(
    onSimulatedClock({
      modify: ({ app }) => app.addHook('onResponse', async (req, reply) => void seen.push({ method: req.method, url: req.url, status: reply.statusCode })),
    }),
  );
  try {
    const result = await runAgainst(target, ['--read-only'], SIMULATED_RUN_ENV);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(seen.length).toBeGreaterThan(50);
    expect(seen.filter((r) => !SAFE.has(r.method)).map((r) => `${r.method} ${r.url}`)).toEqual([]);
    // No rate-limit exhaustion either: not one 429.
    expect(
      seen.filter((r) => r.status === 429).map((r) => `${r.method} ${r.url}`),
      describe429s(result.reportDir),
    ).toEqual([]);
    const report = readReport(result);
    expect(report.complete).toBe(false);
    expect(report.resources.created).toEqual([]);
    const leftOut = report.clauses.flatMap((c) => c.checks).filter((c) => c.status === 'not_applicable' && c.reason === 'read-only');
    expect(leftOut.length).toBeGreaterThan(0);
  } finally {
    await target.close();
  }
});

test('the client itself refuses, before sending, a write or a planned 429 in read-only mode', async () => {
  const sent: string[] = [];
  const client = new HttpClient({
    baseUrl: 'http://127.0.0.1:9',
    keys: { main: 'sk_x', other: null },
    extraHeaders: [],
    readOnly: true,
    hooks: { acquire: async () => void sent.push('acquire'), record: async () => {} },
  });
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    await expect(client.send({ method, path: '/api/v1/api_keys' })).rejects.toBeInstanceOf(ReadOnlyRefusal);
  }
  await expect(client.get('/api/v1/workspaces', { expect429: true })).rejects.toBeInstanceOf(ReadOnlyRefusal);
  expect(sent).toEqual([]);
});
