import { expect, test } from 'vitest';
import { runCli } from './support/cli.js';
import { startReference } from '../reference/server.js';

test('--dry-run stops after the preflight and prints the checks, requests and time it would take', async () => {
  const methods: string[] = [];
  const reference = await startReference({ windowSeconds: 60, modify: ({ app }) => app.addHook('onRequest', async (req) => void methods.push(req.method)) });
  try {
    const run = await runCli(['--dry-run'], { CONFORMANCE_BASE_URL: reference.url, CONFORMANCE_API_KEY: reference.keys.main });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/dry run: \d+ checks would run/);
    expect(run.stdout).toMatch(/time: at 100 a key and 20 without a key per 60 s, at least \d+ window/);
    // Without a profile only the document's facts are known: the clauses needing more are named.
    expect(run.stdout).toMatch(/RES-4: not declared: retrieval paths/);
    expect(methods.every((m) => m === 'GET')).toBe(true);
    expect(methods.length).toBeLessThan(10);
  } finally {
    await reference.close();
  }
});
