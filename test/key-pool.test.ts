import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import rateAccountBucket from '../mutants/rate-account-bucket.js';
import { startReference, type ReferenceOptions } from '../reference/server.js';
import { currentClock, REAL_CLOCK, simulatedClock, useClock } from '../src/clock.js';
import { compose, type Send } from '../src/http/layer.js';
import { keySpreading } from '../src/http/layers/key-spreading.js';
import { prepare, type HttpResponse, type Outgoing, type RequestSpec } from '../src/http/request.js';
import { sharedBudget } from '../src/keys/pool.js';
import type { HttpClient } from '../src/http/client.js';
import { Pacer } from '../src/pacing/pacer.js';
import { loadEstimates } from '../src/run/estimates.js';
import { readReport, runCli } from './support/cli.js';
import { onSimulatedClock, SIMULATED_RUN_ENV } from './support/simulated.js';
import { liveRunKeys } from './support/live-keys.js';
import { describe429s } from './support/rate-evidence.js';

describe('spreading the main key over a pool', () => {
  const addressing = { baseUrl: 'http://target.test', keys: { main: 'sk_main', other: null }, extraHeaders: [] };
  const sent: Outgoing[] = [];
  const transport: Send = async (r) => {
    sent.push(r);
    return {
      status: 200,
      headers: {},
      text: '',
      json: undefined,
      exchange: { startedAt: '', durationMs: 0, auth: r.auth, bucket: r.bucket, request: { method: r.method, url: r.url, headers: {} } },
    } as HttpResponse;
  };
  const send = compose([keySpreading(['sk_pool1', 'sk_pool2'], async (buckets) => buckets.length - 1)], transport);
  const go = (spec: Partial<RequestSpec>) => send(prepare({ path: '/api/v1/workspaces', ...spec }, addressing, 'a check'));

  test('a paced GET or POST of the main key may go with a pool key; deletions, unpaced, 429-seeking and other credentials keep theirs', async () => {
    sent.length = 0;
    await go({});
    await go({ method: 'DELETE' });
    await go({ pace: false });
    await go({ expect429: true });
    await go({ auth: 'none' });
    await go({ auth: { key: 'sk_created', kind: 'created' } });
    expect(sent.map((r) => r.headers.authorization ?? 'none')).toEqual([
      'Bearer sk_pool2',
      'Bearer sk_main',
      'Bearer sk_main',
      'Bearer sk_main',
      'none',
      'Bearer sk_created',
    ]);
    expect(sent[0]!.acquired).toBe(true);
    expect(sent[0]!.auth).toBe('main');
  });

  test("on the simulated clock, a request held for any pooled key's budget is waiting, not on its way: the clock moves to the window it waits for", async () => {
    const clock = simulatedClock();
    useClock(clock);
    try {
      const before = clock.now();
      // As the client does (src/http/client.ts): begun before its layers.
      const answered = clock.requestBegun();
      const held = compose([keySpreading(['sk_pool1'], async () => (await currentClock().sleep(60_000), 1))], transport);
      await held(prepare({ path: '/api/v1/workspaces' }, addressing, 'a check')).finally(answered);
      // Held as on its way, the wait could not move the clock: it would take a real minute, past this test's timeout.
      expect(clock.now() - before).toBeGreaterThanOrEqual(60_000);
    } finally {
      useClock(REAL_CLOCK);
    }
  });

  test("the pacer hands a request to a key with budget left, never past any key's remaining", async () => {
    let now = 0;
    const pacer = new Pacer({ perKey: 100, anonymous: 20, windowMs: 60_000, now: () => now, sleep: async (ms) => void (now += ms) });
    pacer.observe('a', false, 200, { limit: 100, remaining: 0, reset: 60, retryAfter: null }, false);
    pacer.observe('b', false, 200, { limit: 100, remaining: 2, reset: 60, retryAfter: null }, false);
    pacer.observe('c', false, 200, { limit: 100, remaining: 1, reset: 60, retryAfter: null }, false);
    const picks = [await pacer.acquireAny(['a', 'b', 'c']), await pacer.acquireAny(['a', 'b', 'c']), await pacer.acquireAny(['a', 'b', 'c'])];
    expect(picks.sort()).toEqual([1, 1, 2]);
    expect(now).toBe(0);
  });

  test('the configured key (the first) carries spread work last, keeping its window for what only it can send', async () => {
    let now = 0;
    const pacer = new Pacer({ perKey: 100, anonymous: 20, windowMs: 60_000, now: () => now, sleep: async (ms) => void (now += ms) });
    pacer.observe('main', false, 200, { limit: 100, remaining: 90, reset: 60, retryAfter: null }, false);
    pacer.observe('pool', false, 200, { limit: 100, remaining: 2, reset: 60, retryAfter: null }, false);
    const picks = [await pacer.acquireAny(['main', 'pool']), await pacer.acquireAny(['main', 'pool']), await pacer.acquireAny(['main', 'pool'])];
    expect(picks).toEqual([1, 1, 0]);
    expect(now).toBe(0);
  });
});

/** A run of the GEN family asked to spread over three keys (`--max-keys 3`). */
async function runWithPool(options: ReferenceOptions) {
  const received = new Map<string, number>();
  let refusals = 0;
  let live = () => 0;
  const target = await startReference({
    ...onSimulatedClock(options),
    modify: (reference) => {
      options.modify?.(reference);
      live = () => liveRunKeys(reference.state.store.accounts.slice(0, 1)).length;
      reference.app.addHook('onResponse', async (req, reply) => {
        const who = req.headers.authorization ?? 'none';
        received.set(who, (received.get(who) ?? 0) + 1);
        if (reply.statusCode === 429) refusals++;
      });
    },
  });
  try {
    const dir = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'conformance-pool-'));
    const profile = join(dir, 'profile.json');
    writeFileSync(profile, JSON.stringify(target.profile));
    const result = await runCli(['--profile', profile, '--only', 'GEN', '--max-keys', '3'], {
      CONFORMANCE_BASE_URL: target.url,
      CONFORMANCE_API_KEY: target.keys.main,
      ...SIMULATED_RUN_ENV,
    });
    expect(result.stderr, result.stdout).toBe('');
    return { result, report: readReport(result), received, refusals, keysLeft: live(), mainKey: target.keys.main };
  } finally {
    await target.close();
  }
}

/**
 * A client of a target with fixed windows of `perWindow` requests: one budget for all keys
 * (`shared`), or one per key; the window ends after the requests `rollAfter` lists.
 */
function windowedTarget(shared: boolean, rollAfter: readonly number[]): Pick<HttpClient, 'get'> {
  const spent = new Map<string, number>();
  let sent = 0;
  let window = 0;
  return {
    get: (async (_path: string, options?: { auth?: { key: string } }) => {
      const bucket = shared ? 'account' : (options?.auth?.key ?? 'main');
      spent.set(bucket, (spent.get(bucket) ?? 0) + 1);
      const headers = {
        'x-ratelimit-limit': '100',
        'x-ratelimit-remaining': String(100 - spent.get(bucket)!),
        'x-ratelimit-reset': String(1_800_000_000 + window),
      };
      if (rollAfter.includes(++sent)) {
        spent.clear();
        window++;
      }
      return { status: 200, headers } as unknown as HttpResponse;
    }) as HttpClient['get'],
  };
}

describe('telling a shared budget from per-key ones', () => {
  test('keys that share one budget are told apart from keys with their own, within one window', async () => {
    expect(await sharedBudget({ http: windowedTarget(true, []) as HttpClient }, 'sk_pool')).toBe(true);
    expect(await sharedBudget({ http: windowedTarget(false, []) as HttpClient }, 'sk_pool')).toBe(false);
  });

  test('a reading across the end of a window is made again, not taken for budgets of their own', async () => {
    // The window ends after the first reading, and again after the main key's request.
    expect(await sharedBudget({ http: windowedTarget(true, [1]) as HttpClient }, 'sk_pool')).toBe(true);
    expect(await sharedBudget({ http: windowedTarget(true, [2, 5]) as HttpClient }, 'sk_pool')).toBe(true);
    expect(await sharedBudget({ http: windowedTarget(false, [1]) as HttpClient }, 'sk_pool')).toBe(false);
  });
});

describe('a run with a key pool (--max-keys)', () => {
  test("spreads the main key's reading over the keys it creates, and deletes them at the end", async () => {
    const { result, report, received, refusals, keysLeft, mainKey } = await runWithPool({});
    expect(result.stdout).toContain('note: work spread over 3 keys');
    expect(report.verdict).toBe('conformant');
    const keyed = [...received].filter(([who]) => who !== 'none' && who !== `Bearer ${mainKey}`);
    expect(keyed.filter(([, n]) => n >= 3).length).toBeGreaterThanOrEqual(2);
    expect(refusals, describe429s(result.reportDir)).toBe(0);
    expect(keysLeft).toBe(0);
  }, 240_000);

  test('falls back to one key, without a 429, where the keys share one budget', async () => {
    const { result, report, refusals, keysLeft } = await runWithPool({ modify: rateAccountBucket.modify! });
    expect(result.stdout).toContain('note: one key: keys of the account share one rate-limit budget');
    expect(report.verdict).toBe('conformant');
    expect(report.environment.unplanned429, describe429s(result.reportDir)).toBe(0);
    expect(refusals).toBe(0);
    expect(keysLeft).toBe(0);
  }, 240_000);
});

describe('no pool where the run would not wait', () => {
  /** A run of `--only ONLY` against the embedded reference: conformant, and no key created. */
  const withoutPool = async (only: string) => {
    const result = await runCli(['--only', only]);
    const report = readReport(result);
    expect(report.verdict, result.stdout).toBe('conformant');
    expect(report.resources.created.filter((e) => e.kind === 'api_key')).toEqual([]);
    expect(result.stdout).not.toContain('work spread over');
    return report;
  };

  test('--only GEN-2,GEN-4 against the embedded reference creates no key: its dozen requests fit in one window of one key', async () => {
    await withoutPool('GEN-2,GEN-4');
  }, 120_000);

  // Not --only GEN: without a pool, the transports' requests (GEN-3) go on the configured key too,
  // past its window's 100 (docs/schedule.md, "A run without a pool"), and the run makes a pool.
  test('--only GEN-1 creates no key: the header catalogue sends its cover on the configured key, and the rest of its product only on a pool', async () => {
    const report = await withoutPool('GEN-1');
    const headers = report.clauses.flatMap((c) => c.checks).find((c) => c.clause === 'GEN-1' && c.key === 'request-headers')!;
    const stored = loadEstimates().checks.find((c) => c.clause === 'GEN-1' && c.key === 'request-headers')!;
    expect(headers.status).toBe('pass');
    expect(headers.pooledRequests).toBeUndefined();
    expect(headers.requests?.main).toBe(stored.requests.main! - stored.pooledRequests!.main!);
  }, 120_000);
});
