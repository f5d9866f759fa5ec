import { describe, expect, test } from 'vitest';
import type { Exchange } from '../src/http/exchange.js';
import { RUN_WIDE_JUDGES } from '../src/judge/run-wide.js';
import { parseProfile } from '../src/profile/profile.js';

const profile = parseProfile({ name: 't', limits: { perKeyPerMinute: 100, unauthenticatedPerMinute: 20, windowSeconds: 60 } });
const now = Date.now();
const reset = String(Math.ceil(now / 1000) + 30);

function exchange(at: number, remaining: number, extra: Partial<Exchange> = {}): Exchange {
  return {
    startedAt: new Date(at).toISOString(),
    durationMs: 1,
    auth: 'main',
    bucket: 'key:a',
    request: { method: 'GET', url: 'http://t/api/v1/workspaces', headers: {} },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': reset },
      body: '{}',
      bytes: 2,
      truncated: false,
      json: 'ok',
    },
    ...extra,
  };
}

describe('RATE-8 over the run log', () => {
  test('a Remaining that does not fall between two sequential requests is flagged', () => {
    expect(RUN_WIDE_JUDGES['RATE-8']([exchange(now, 50), exchange(now + 10, 50)], profile)).toHaveLength(1);
  });

  test('requests that overlapped on the wire may be answered in either order', () => {
    const log = [exchange(now, 49, { overlapped: true }), exchange(now + 10, 50, { overlapped: true })];
    expect(RUN_WIDE_JUDGES['RATE-8'](log, profile)).toEqual([]);
  });

  test('a Remaining that falls by one is fine', () => {
    expect(RUN_WIDE_JUDGES['RATE-8']([exchange(now, 50), exchange(now + 10, 49)], profile)).toEqual([]);
  });

  test('a kind whose Remaining never falls is judged on stuck pairs of two checks: one check sends its requests at one moment of a budget that may refill then', () => {
    // Thirty reads that fall by one, then two HEAD reads that do not.
    const log = (checks: readonly [string, string]) => {
      const reads = Array.from({ length: 30 }, (_, at) => exchange(now + at * 10, 99 - at, { check: 'lists' }));
      const head = (at: number, check: string) =>
        exchange(now + 400 + at * 10, 70, { check, request: { method: 'HEAD', url: 'http://t/api/v1/workspaces', headers: {} } });
      return [...reads, head(0, checks[0]), exchange(now + 405, 70, { check: 'lists' }), head(1, checks[1])];
    };
    expect(RUN_WIDE_JUDGES['RATE-8'](log(['pairs', 'pairs']), profile)).toEqual([]);
    expect(RUN_WIDE_JUDGES['RATE-8'](log(['pairs', 'walks']), profile)).toHaveLength(2);
  });

  // A key's sequential requests, each a read or a write, and the Remaining each took from the budget.
  const sequence = (steps: readonly ('read' | 'write')[], cost: (step: 'read' | 'write', at: number) => number): Exchange[] => {
    let remaining = 99;
    return steps.map((step, at) => {
      remaining -= at === 0 ? 0 : cost(step, at);
      const write = { request: { method: 'POST', url: 'http://t/api/v1/submissions', headers: {} } };
      return exchange(now + at * 10, remaining, step === 'write' ? write : {});
    });
  };
  const reads = (n: number) => Array.from({ length: n }, () => 'read' as const);

  test('writes that each take two from the budget, while reads take one, are a budget that counts a write twice', () => {
    const steps = [...reads(30), 'write', 'read', 'write', 'read', 'write', 'read', 'write', 'read'] as const;
    const violations = RUN_WIDE_JUDGES['RATE-8'](
      sequence(steps, (step) => (step === 'write' ? 2 : 1)),
      profile,
    );
    expect(violations).toHaveLength(4);
    expect(violations[0]?.reason).toMatch(/\(POST \/api\/v1\/submissions answered 200\) .*every such request took 2 from the budget/);
  });

  test('another client taking from the budget now and then, even after every write of a few, is not judged', () => {
    const steps = [...reads(30), 'write', 'read', 'write', 'read', 'write', 'read'] as const;
    // Three writes, each with another client's request before it: fewer than four pairs of one kind.
    expect(
      RUN_WIDE_JUDGES['RATE-8'](
        sequence(steps, (step) => (step === 'write' ? 2 : 1)),
        profile,
      ),
    ).toEqual([]);
    // Falls of two and three after the writes: not one same amount.
    const uneven = sequence([...reads(30), 'write', 'write', 'write', 'write', 'write'], (step, at) => (step === 'write' ? 2 + (at % 2) : 1));
    expect(RUN_WIDE_JUDGES['RATE-8'](uneven, profile)).toEqual([]);
  });

  describe('a Remaining that falls by less than a run of sequential requests spent', () => {
    // A pool key read twenty times in turn, 10 ms apart, each a page of its own (an answer repeated for one URL may
    // be a cache's copy), its Remaining shown in tens (falls of ten every ten requests).
    const page = (at: number) => ({ request: { method: 'GET', url: `http://t/api/v1/workspaces?page=${at + 1}`, headers: {} } });
    const inTens = (extra: Partial<Exchange>) =>
      Array.from({ length: 20 }, (_, at) => exchange(now + at * 10, Math.ceil((99 - at) / 10) * 10, { ...page(at), ...extra }));

    test('on a key only the run holds, Remaining held for requests that could not all have come back is counted late', () => {
      const violations = RUN_WIDE_JUDGES['RATE-8'](inTens({ pooled: true }), profile);
      expect(violations.length).toBeGreaterThan(0);
      expect(violations[0]?.reason).toMatch(/went from 90 to 90 over 9 sequential requests of a key only this run holds/);
      expect(RUN_WIDE_JUDGES['RATE-8'](inTens({ auth: 'created', bucket: 'key:c' }), profile).length).toBeGreaterThan(0);
    });

    test('on the configured key, which other clients may share, it is not judged', () => {
      expect(
        RUN_WIDE_JUDGES['RATE-8']([exchange(now - 1000, 50, { bucket: 'key:z' }), exchange(now - 990, 49, { bucket: 'key:z' }), ...inTens({})], profile),
      ).toEqual([]);
    });

    test('what a token bucket refills over the run may have come back', () => {
      // Requests a second apart: 100 a 60-s window refill more than one between each two.
      const spaced = Array.from({ length: 20 }, (_, at) => exchange(now + at * 1000, 90, { pooled: true, ...page(at) }));
      expect(
        RUN_WIDE_JUDGES['RATE-8']([exchange(now - 1000, 50, { bucket: 'key:z' }), exchange(now - 990, 49, { bucket: 'key:z' }), ...spaced], profile),
      ).toEqual([]);
    });

    test('a request without a Remaining, a 429 or an overlap ends a run: it may not have been counted', () => {
      const falling = [exchange(now - 1000, 50, { bucket: 'key:z' }), exchange(now - 990, 49, { bucket: 'key:z' })];
      const held = (at: number) => exchange(now + at * 10, 90, { pooled: true, ...page(at) });
      const broken = (at: number): Exchange => {
        const e = held(at);
        return { ...e, response: { ...e.response!, status: 429 } };
      };
      // Runs of two requests that hold Remaining, between 429s: each pair is RATE-8's pair rule's, not a run's.
      const log = [...falling, ...Array.from({ length: 12 }, (_, at) => (at % 3 === 2 ? broken(at) : held(at)))];
      expect(RUN_WIDE_JUDGES['RATE-8'](log, profile).every((v) => !/sequential requests of a key only this run holds/.test(v.reason))).toBe(true);
    });
  });

  describe('a Remaining that rises within a window', () => {
    const records = { request: { method: 'GET', url: 'http://t/api/v1/records', headers: {} } };
    // A pool key whose workspace reads took it to 80, then a read of records answered 99 in the same window.
    const twoCounters = (extra: Partial<Exchange>) => [
      ...Array.from({ length: 20 }, (_, at) => exchange(now + at * 10, 99 - at, extra)),
      exchange(now + 210, 99, { ...extra, ...records }),
    ];

    test('on a key only the run holds, a rise no budget could give back is a key counted in two budgets', () => {
      const violations = RUN_WIDE_JUDGES['RATE-8'](twoCounters({ pooled: true }), profile);
      expect(violations).toHaveLength(1);
      expect(violations[0]?.reason).toMatch(/rose from 80 to 99 .* a key only this run holds/);
      expect(RUN_WIDE_JUDGES['RATE-8'](twoCounters({ auth: 'created', bucket: 'key:c' }), profile)).toHaveLength(1);
    });

    test('on the configured key, which other clients may share, a rise is not judged', () => {
      expect(RUN_WIDE_JUDGES['RATE-8'](twoCounters({}), profile)).toEqual([]);
    });

    // Another key whose Remaining falls: RATE-8 judges a run whose Remaining never falls on its own.
    const falling = [exchange(now - 1000, 50, { bucket: 'key:z' }), exchange(now - 990, 49, { bucket: 'key:z' })];

    test('what a token bucket refills over the time between two requests may come back', () => {
      // Twelve seconds at 100 a 60-s window refill 20: a rise of 19 is no fault.
      const log = [...falling, exchange(now, 80, { pooled: true }), exchange(now + 12_000, 99, { pooled: true })];
      expect(RUN_WIDE_JUDGES['RATE-8'](log, profile)).toEqual([]);
    });

    test("the key's own requests of a window before may leave a sliding log", () => {
      // Nineteen a window before, each met a reset (no answer, but counted all the same).
      const unanswered = (at: number): Exchange => {
        const { response: _, ...sent } = exchange(at, 0, { pooled: true, failure: { kind: 'reset', message: 'reset' } });
        return sent;
      };
      const earlier = Array.from({ length: 19 }, (_, at) => unanswered(now - 60_000 + at * 10));
      const log = [...falling, ...earlier, exchange(now + 100, 80, { pooled: true }), exchange(now + 300, 99, { pooled: true })];
      expect(RUN_WIDE_JUDGES['RATE-8'](log, profile)).toEqual([]);
    });

    test("an earlier answer of the same URL, or one with an Age, may be a cache's copy", () => {
      const log = twoCounters({ pooled: true });
      const copied = [exchange(now - 5, 99, { pooled: true, ...records }), ...log];
      expect(RUN_WIDE_JUDGES['RATE-8'](copied, profile)).toEqual([]);
      const aged = log.map((e, at) => (at === log.length - 1 ? { ...e, response: { ...e.response!, headers: { ...e.response!.headers, age: '3' } } } : e));
      expect(RUN_WIDE_JUDGES['RATE-8'](aged, profile)).toEqual([]);
    });
  });

  test('where reads also often take more than one, a busy key shared with another client, writes that take two are not judged', () => {
    const steps = [...reads(30), 'write', 'write', 'write', 'write', 'write'] as const;
    expect(
      RUN_WIDE_JUDGES['RATE-8'](
        sequence(steps, (step, at) => (step === 'write' || at % 4 === 0 ? 2 : 1)),
        profile,
      ),
    ).toEqual([]);
  });
});

describe('RATE-1 over the run log', () => {
  const withHeaders = (status: number, headers: Record<string, string>) => {
    const e = exchange(now, 50);
    return { ...e, response: { ...e.response!, status, headers: { 'content-type': 'application/json', ...headers } } };
  };
  const none = {};

  test('"responses generally" read both ways: an error without the headers is no finding (nginx adds them to successes alone), a success without them is', () => {
    expect(RUN_WIDE_JUDGES['RATE-1']([withHeaders(404, none), withHeaders(422, none), withHeaders(500, none)])).toEqual([]);
    expect(RUN_WIDE_JUDGES['RATE-1']([withHeaders(200, none)]).map((v) => v.reason)).toEqual([
      'an authenticated 200 lacks X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
    ]);
  });

  test('a header sent is an integer, whatever the status', () => {
    const decimal = { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '49', 'x-ratelimit-reset': `${reset}.25` };
    expect(RUN_WIDE_JUDGES['RATE-1']([withHeaders(404, decimal)]).map((v) => v.reason)).toEqual([
      'an authenticated 404 carries X-RateLimit-Reset not as an integer',
    ]);
  });
});

describe('PAG-1 over the run log', () => {
  const list = (body: string, extra: Partial<Exchange['response']> = {}) => {
    const e = exchange(now, 50);
    return { ...e, response: { ...e.response!, body, bytes: body.length, ...extra } };
  };

  test('a list response of any suite that is not the envelope is flagged', () => {
    expect(RUN_WIDE_JUDGES['PAG-1']([list('{"items":[],"has_more":false,"total_count":"0"}')], profile)).toHaveLength(1);
  });

  test('the envelope, a retrieval and a body cut short for the log are not judged as lists', () => {
    const retrieval = { ...list('{"id":"ws_1"}'), request: { method: 'GET', url: 'http://t/api/v1/workspaces/ws_1', headers: {} } };
    const log = [list('{"items":[],"has_more":false,"total_count":0}'), retrieval, list('{"items":[', { truncated: true })];
    expect(RUN_WIDE_JUDGES['PAG-1'](log, profile)).toEqual([]);
  });
});

describe('ERR-4 over the run log', () => {
  const refusal = (contentType: string | undefined): Exchange =>
    exchange(now, 10, {
      request: {
        method: 'POST',
        url: 'http://t/api/v1/api_keys',
        headers: contentType === undefined ? {} : { 'content-type': contentType },
        body: '{"name": "k"}',
      },
      response: {
        status: 422,
        headers: { 'content-type': 'application/json' },
        body: '{"error": {"type": "invalid_request_error", "code": "unsupported_media_type", "message": "m", "param": null, "path": null}}',
        bytes: 10,
        truncated: false,
        json: 'ok',
      },
    });

  test('a 422 with param null for a JSON object sent as application/json is flagged', () => {
    expect(RUN_WIDE_JUDGES['ERR-4']([refusal('application/json')])).toHaveLength(1);
  });

  test('a 422 with param null for a body sent without Content-Type or as text/plain is not: the header is at fault', () => {
    expect(RUN_WIDE_JUDGES['ERR-4']([refusal(undefined), refusal('text/plain')])).toEqual([]);
  });
});

describe('GEN-1 over the run log', () => {
  test('a body that is not UTF-8 is flagged with the offset of its first bad byte', () => {
    const latin1 = exchange(now, 10);
    latin1.response = {
      ...latin1.response!,
      json: 'invalid',
      jsonProblem: 'not UTF-8 (RFC 8259 §8.1): the byte 0xE9 at offset 7 starts no valid UTF-8 sequence',
    };
    const [violation] = RUN_WIDE_JUDGES['GEN-1']([latin1]);
    expect(violation?.reason).toContain('0xE9 at offset 7');
  });
});

describe('RATE-2 over the run log', () => {
  const ceiling1000 = (() => {
    const e = exchange(now, 900);
    return { ...e, response: { ...e.response!, headers: { ...e.response!.headers, 'x-ratelimit-limit': '1000' } } };
  })();

  test('a Limit other than the document figure, under a profile that declares no limits, names the profile fact that states a deployment’s own ceiling', () => {
    const [violation] = RUN_WIDE_JUDGES['RATE-2']([ceiling1000], parseProfile({ name: 'no limits' }));
    expect(violation?.reason).toMatch(
      /^X-RateLimit-Limit is 1000, the per-key ceiling is 100 \(the document's figure, .* states it in the profile's limits\.perKeyPerMinute\)/,
    );
  });

  test('under a profile that declares a ceiling of its own, the finding says the ceiling is the profile’s', () => {
    const own = parseProfile({ name: 'own', limits: { perKeyPerMinute: 500 } });
    const [violation] = RUN_WIDE_JUDGES['RATE-2']([ceiling1000], own);
    expect(violation?.reason).toMatch(/^X-RateLimit-Limit is 1000, the per-key ceiling is 500 \(the profile's limits\.perKeyPerMinute\)/);
  });
});

describe('AUTH-1, AUTH-2 and AUTH-3 over the run log', () => {
  const carrying = (auth: Exchange['auth'], status: number, extra: Partial<Exchange> = {}): Exchange => {
    const base = exchange(now, 50, { auth, check: 'X-1 a check' });
    return { ...base, response: { ...base.response!, status }, ...extra };
  };

  test('a request of a check that carried no key, a malformed header or an unknown key, served, breaks its clause wherever it stands', () => {
    expect(RUN_WIDE_JUDGES['AUTH-1']([carrying('none', 200)], profile, [])[0]!.reason).toBe(
      '[GET] /api/v1/workspaces with no Authorization header was answered 200, expected 401',
    );
    expect(RUN_WIDE_JUDGES['AUTH-2']([carrying('malformed', 201)], profile, [])).toHaveLength(1);
    expect(RUN_WIDE_JUDGES['AUTH-3']([carrying('invalid', 204)], profile, [])).toHaveLength(1);
  });

  test("behind a base URL with a path of its own (a gateway prefix), the API's paths are found all the same", () => {
    const prefixed = carrying('none', 200, { request: { method: 'GET', url: 'http://t/tenant-a/api/v1/workspaces', headers: {} } });
    expect(RUN_WIDE_JUDGES['AUTH-1']([prefixed], profile, [])[0]!.reason).toBe(
      '[GET] /api/v1/workspaces with no Authorization header was answered 200, expected 401',
    );
  });

  test('a refusal, a CORS preflight, a path outside the API and a request no check made are no sample', () => {
    const log = [
      carrying('none', 401),
      carrying('none', 429),
      carrying('none', 204, { request: { method: 'OPTIONS', url: 'http://t/api/v1/workspaces', headers: {} } }),
      carrying('none', 200, { request: { method: 'GET', url: 'http://t/health', headers: {} } }),
      // The stage that looks for where keys are deleted uses a key it is not yet sure it deleted.
      carrying('invalid', 200, { check: undefined }),
    ];
    for (const clause of ['AUTH-1', 'AUTH-2', 'AUTH-3'] as const) expect(RUN_WIDE_JUDGES[clause](log, profile, [])).toEqual([]);
  });
});

describe('KEY-6 over the run log', () => {
  const keyProfile = parseProfile({
    name: 't',
    limits: { perKeyPerMinute: 100, unauthenticatedPerMinute: 20, windowSeconds: 60 },
    paths: { apiKey: '/api/v1/api_keys/{id}', apiKeyList: '/api/v1/api_keys' },
    apiKeyFields: { id: 'id' },
  });
  const at = (ms: number, method: string, path: string, status: number, body = '{}'): Exchange => {
    const base = exchange(now + ms, 50);
    return { ...base, request: { method, url: `http://t${path}`, headers: {} }, response: { ...base.response!, status, body } };
  };
  const list = (ms: number, ids: string[]) =>
    at(ms, 'GET', '/api/v1/api_keys', 200, JSON.stringify({ items: ids.map((id) => ({ id })), has_more: false, total_count: ids.length }));

  test('a key list asked for more than 10 s after a deletion was answered, that still shows the key, is flagged, whichever checks deleted and listed', () => {
    const log = [list(0, ['k1', 'k2']), at(10, 'DELETE', '/api/v1/api_keys/k1', 204), list(10_020, ['k1', 'k2'])];
    expect(RUN_WIDE_JUDGES['KEY-6'](log, keyProfile).map((v) => v.reason)).toEqual([
      'the key list still shows key k1, whose deletion was answered more than 10 s before the list was asked for',
    ]);
  });

  test('a list served from an index a moment behind may show a deletion late: within the 10 s KEY-1 gives a new key, no finding', () => {
    const log = [at(10, 'DELETE', '/api/v1/api_keys/k1', 204), list(20, ['k1']), list(1_100, ['k1']), list(2_200, [])];
    expect(RUN_WIDE_JUDGES['KEY-6'](log, keyProfile)).toEqual([]);
  });

  test('a list asked for before the deletion was answered, a refused deletion, or a profile without the key path judge nothing', () => {
    const log = [at(10, 'DELETE', '/api/v1/api_keys/k1', 204), list(5, ['k1']), at(30, 'DELETE', '/api/v1/api_keys/k2', 403), list(40, ['k2'])];
    expect(RUN_WIDE_JUDGES['KEY-6'](log, keyProfile)).toEqual([]);
    expect(RUN_WIDE_JUDGES['KEY-6']([at(10, 'DELETE', '/api/v1/api_keys/k1', 204), list(20, ['k1'])], profile)).toEqual([]);
  });
});

describe('RATE-2 over the run log', () => {
  test("a 429 naming the per-IP ceiling to a request with a key is the per-IP budget's answer, not the key's; the per-IP ceiling on any other answer is a finding", () => {
    const withLimit = (status: number) => {
      const base = exchange(now, 0, { auth: 'created' });
      return {
        ...base,
        response: { ...base.response!, status, headers: { ...base.response!.headers, 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '0' } },
      };
    };
    expect(RUN_WIDE_JUDGES['RATE-2']([withLimit(429)], profile)).toEqual([]);
    expect(RUN_WIDE_JUDGES['RATE-2']([withLimit(200)], profile)).toHaveLength(1);
  });
});

describe('SUB-1 over the run log', () => {
  const subProfile = (sampleRow: Record<string, unknown> | null) =>
    parseProfile({
      name: 't',
      limits: { perKeyPerMinute: 100, unauthenticatedPerMinute: 20, windowSeconds: 60 },
      submissions: { workspaceQueryParam: 'workspace_id', sampleRow, acceptsAnyData: true },
    });
  const submission = (status: number, data: unknown, extra: { headers?: Record<string, string>; query?: string; taxonomy?: string } = {}): Exchange => {
    const base = exchange(now, 50, { check: 'SUB-5 rows at the boundaries' });
    const body = JSON.stringify({ workspace_id: 'ws_1', taxonomy_id: extra.taxonomy ?? 'tx_1', rows: [{ data }] });
    return {
      ...base,
      request: {
        method: 'POST',
        url: `http://t/api/v1/submissions?${extra.query ?? 'workspace_id=ws_1'}`,
        headers: { accept: 'application/json', 'content-type': 'application/json', authorization: '[REDACTED]', ...extra.headers },
        body,
      },
      response: { ...base.response!, status },
    };
  };
  const accepted = submission(201, { conformance_run: 'r1' });

  test("a request of SUB-1's shape refused, whichever check sent it, breaks SUB-1 where the same key was answered 201 in that workspace and taxonomy", () => {
    const violations = RUN_WIDE_JUDGES['SUB-1']([accepted, submission(400, {})], subProfile(null));
    expect(violations).toHaveLength(1);
    expect(violations[0]!.reason).toContain('was answered 400, expected 201 (profile fact submissions.sampleRow = null: is it right?)');
    expect(RUN_WIDE_JUDGES['SUB-1']([accepted, submission(202, { note: 'x' })], subProfile({ note: 'x' }))).toHaveLength(1);
  });

  test("behind a gateway, the header every request of the run carries (CONFORMANCE_EXTRA_HEADERS) is the run's own, not a header of another clause", () => {
    const gateway = { 'x-gateway-token': '[REDACTED]' };
    const log = [submission(201, { conformance_run: 'r1' }, { headers: gateway }), submission(400, {}, { headers: gateway })];
    expect(RUN_WIDE_JUDGES['SUB-1'](log, subProfile(null))).toHaveLength(1);
  });

  test('another row, another header, another query, a workspace and taxonomy never accepted, or a 429, is not SUB-1 to the letter', () => {
    const log = [
      accepted,
      submission(422, { other: 1 }),
      submission(412, {}, { headers: { 'if-none-match': '*' } }),
      submission(415, {}, { headers: { 'content-type': 'text/plain' } }),
      submission(406, {}, { headers: { accept: 'text/html' } }),
      submission(400, {}, { query: 'workspace_id=ws_1&page=0' }),
      submission(404, {}, { taxonomy: 'tx_unknown' }),
      submission(429, {}),
    ];
    expect(RUN_WIDE_JUDGES['SUB-1'](log, subProfile(null))).toEqual([]);
    // With a sample row declared, an empty data object is not the sample.
    expect(RUN_WIDE_JUDGES['SUB-1']([accepted, submission(422, {})], subProfile({ note: 'x' }))).toEqual([]);
  });
});

describe('KEY-4 over the run log', () => {
  // Keys of 48 hex digits past `gmk_`, and pages of ids of 12 hex digits, as the blind Python implementation answers.
  const revealed = Array.from({ length: 40 }, () => ({ part: 48, alphabet: 'hex' as const, size: 16 }));
  const page = (ids: string[]) => {
    const base = exchange(now, 50);
    const body = JSON.stringify({ items: ids.map((id) => ({ id: `sub_${id}` })) });
    return { ...base, response: { ...base.response!, body, bytes: body.length } };
  };
  const ids = Array.from({ length: 300 }, (_, i) => (0x5a17e0000000 + i * 7919).toString(16));
  const log = (extra: Exchange[]) => [...Array.from({ length: 15 }, (_, p) => page(ids.slice(p * 20, p * 20 + 20))), ...extra];

  test('8 digits of one key in an id, repeated on 16 pages, are what chance does: no finding', () => {
    const shared = Array.from({ length: 16 }, () => ({ ...page(['3fa9c1e0b7d2']), leaks: [4], leakRuns: [8] }));
    expect(RUN_WIDE_JUDGES['KEY-4'](log(shared), profile, revealed)).toEqual([]);
  });

  test('16 digits of one key, or 8 of each of two, are a leak, found on every response that holds them', () => {
    const long = { ...page(['3fa9c1e0b7d2']), leaks: [4], leakRuns: [16] };
    expect(RUN_WIDE_JUDGES['KEY-4'](log([long, long]), profile, revealed)).toHaveLength(2);
    expect(RUN_WIDE_JUDGES['KEY-4'](log([long]), profile, revealed)[0]!.reason).toBe(
      'a response after the key was created contains 16 consecutive characters of its secret',
    );
    const two = { ...page(['3fa9c1e0b7d2', '77e1c0a9d2b3']), leaks: [4, 9], leakRuns: [8, 8] };
    expect(RUN_WIDE_JUDGES['KEY-4'](log([two]), profile, revealed)[0]!.reason).toBe(
      'a response after the key was created contains 8 consecutive characters of its secret',
    );
    const whole = { ...page([]), leaks: [4], leakRuns: [48] };
    expect(RUN_WIDE_JUDGES['KEY-4'](log([whole]), profile, revealed)[0]!.reason).toBe('a response after the key was created contains its whole secret');
  });
});
