import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { mutantNamed } from '../mutants/index.js';
import { beforeHandler, pathOf } from '../mutants/support.js';
import type { Modification } from '../reference/server.js';
import { REQUEST_HEADERS } from '../suites/catalogues/request-headers.js';
import { CREDENTIAL_CARRIERS } from '../suites/catalogues/credential-carriers.js';
import { PAGE_OFFSETS } from '../suites/catalogues/page-offsets.js';
import { runAgainstReference, sharedRun } from './support/cli.js';

// The explorer (suites/explorer.suite.ts) and the catalogues of what varies (suites/catalogues/):
// chance decides values and orders, never whether a class is visited, and a finding it makes is
// told as a sequence of steps that the seed replays.

interface HarEntry {
  readonly request: { readonly method: string; readonly url: string; readonly headers: readonly { name: string; value: string }[] };
}

function harOf(reportDir: string): HarEntry[] {
  return (JSON.parse(readFileSync(join(reportDir, 'exchanges.har'), 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
}

const headerOf = (entry: HarEntry, name: string) => entry.request.headers.find((h) => h.name.toLowerCase() === name)?.value;

describe('every class of the catalogues is visited in a default run, whatever the seed', () => {
  test('each request header HTTP defines is sent on every list and retrieval, and each carrier of a key without the Authorization header once at least', async () => {
    const result = await sharedRun([]);
    const entries = harOf(result.reportDir);
    for (const entry of REQUEST_HEADERS) {
      const [name, value] = Object.entries(entry.headers)[0]!;
      const sent = entries.filter((e) => headerOf(e, name) === value && e.request.method === 'GET');
      // Every list and retrieval of the reference's profile: six collections, their items and the submission list.
      expect(new Set(sent.map((e) => new URL(e.request.url).pathname)).size, entry.name).toBeGreaterThanOrEqual(13);
    }
    const withoutHeader = entries.filter((e) => headerOf(e, 'authorization') === undefined);
    for (const carrier of CREDENTIAL_CARRIERS) {
      const shape = carrier.carry('KEY');
      const carried = withoutHeader.filter((e) =>
        shape.query
          ? Object.keys(shape.query).every((q) => new URL(e.request.url).searchParams.has(q))
          : Object.keys(shape.headers ?? {}).every((h) => headerOf(e, h) !== undefined),
      );
      expect(carried.length, carrier.name).toBeGreaterThan(0);
    }
  }, 240_000);
});

describe("each catalogue's entries are sent, and its own checks catch a defect of their class", () => {
  test('every page offset at an integer boundary is asked of every list in a default run', async () => {
    const entries = harOf((await sharedRun([])).reportDir);
    for (const offset of PAGE_OFFSETS) {
      const lists = entries.filter((e) => {
        const url = new URL(e.request.url);
        return url.searchParams.get('page') === String(offset.page) && url.searchParams.get('limit') === String(offset.limit);
      });
      // Eight lists: the six collections, the submissions and the API keys.
      expect(new Set(lists.map((e) => new URL(e.request.url).pathname)).size, offset.name).toBeGreaterThanOrEqual(8);
    }
  }, 240_000);

  test.each([
    ['auth-cached-per-connection', ['--only', 'AUTH'], ['AUTH-1/one-connection', 'AUTH-2/one-connection', 'AUTH-3/one-connection']],
    ['last-use-write-conflict', ['--only', 'GEN-3'], ['GEN-3/in-flight-at-once']],
    ['page-offset-32-bit', ['--only', 'PAG-9'], ['PAG-9/past-the-end-records']],
  ])(
    '%s is caught by the checks that send the catalogue entries of its class',
    async (name, args, checks) => {
      const run = await runAgainstReference({ modify: mutantNamed(name).modify }, args);
      const statuses = new Map<string, string>(run.report.clauses.flatMap((c) => c.checks.map((k) => [`${c.id}/${k.key}`, k.status] as const)));
      for (const check of checks) expect(['fail', 'warn'], check).toContain(statuses.get(check));
    },
    240_000,
  );
});

describe('what the explorer explored', () => {
  test('--explore sets the sequences drawn beyond the cover, and a passing run lists every sequence and the seed in every report', async () => {
    const [three, none] = await Promise.all([
      runAgainstReference({}, ['--only', 'KEY', '--seed', '11', '--explore', '3']),
      runAgainstReference({}, ['--only', 'KEY', '--seed', '11', '--explore', '0']),
    ]);
    const explored = (run: typeof three) => run.report.clauses.find((c) => c.id === 'KEY-1')!.checks.find((c) => c.key === 'explored-lifecycle')!;
    const check = explored(three);
    expect(check.status).toBe('pass');
    expect(check.explored?.seed).toBe(11);
    const sequences = check.explored!.sequences;
    expect(sequences.filter((s) => s.startsWith('cover '))).toHaveLength(4);
    // Every drawn sequence opens with a key, so that it has something to act on.
    expect(sequences.filter((s) => s.startsWith('drawn '))).toEqual(
      [1, 2, 3].map((n) => expect.stringMatching(new RegExp(`^drawn ${n}: create a key \\(by the default actor\\)`))),
    );
    expect(sequences.every((s) => s.endsWith(': as the model allows'))).toBe(true);
    expect(explored(none).explored!.sequences).toHaveLength(4);
    expect(readFileSync(join(three.reportDir, 'summary.md'), 'utf8')).toMatch(
      /The explorer ran 7 sequence\(s\) of the key lifecycle \(4 of its cover, 3 drawn from seed 11; --seed 11/,
    );
    expect(readFileSync(join(three.reportDir, 'report.html'), 'utf8')).toMatch(/<ol class="explored"><li>cover 1: create a key/);
    expect(readFileSync(join(three.reportDir, 'junit.xml'), 'utf8')).toMatch(/explored \(seed 11\):\n {2}cover 1: /);
  }, 240_000);
});

/** A run of the keys' checks against the reference as `modify` changes it: each clause's share of the exploration. */
async function exploredUnder(modify: Modification) {
  const run = await runAgainstReference({ modify }, ['--only', 'KEY', '--seed', '5', '--property-runs', '25']);
  return (clause: string) => run.report.clauses.find((c) => c.id === clause)!.checks.find((c) => c.key === 'explored-lifecycle')!;
}

describe('explorer findings of two clauses', () => {
  test('every sequence of the cover runs whatever an earlier one found: a deleted key still served (KEY-5) does not hide a key missing from the list (KEY-3)', async () => {
    // A key that deletes itself is answered 204 and stays live: the cover's second sequence (KEY-5).
    const selfDeletionIgnored: Modification = (reference) =>
      beforeHandler(reference, async (req, reply) => {
        const id = /^\/api\/v1\/api_keys\/([^/]+)$/.exec(pathOf(req))?.[1];
        if (req.method === 'DELETE' && id !== undefined && req.apiKey?.id === decodeURIComponent(id)) await reply.code(204).send();
      });
    const faults = [selfDeletionIgnored, mutantNamed('key-list-by-creator').modify];
    const explored = await exploredUnder((reference) => faults.forEach((fault) => fault(reference)));
    // The second cover sequence uses a key right after it deleted itself; the third lists a key another key created.
    expect(explored('KEY-5').status).toBe('fail');
    expect(explored('KEY-3').status).toBe('fail');
    expect(explored('KEY-3').reason).toMatch(/in the sequence the cover's sequence \d/);
  }, 240_000);
});

describe('a departure from a SHOULD in the explorer', () => {
  test('a deleted key kept in the list (KEY-6) warns once, and the MUSTs are still explored: the drawn sequences run and KEY-1, KEY-3 and KEY-5 are judged', async () => {
    const explored = await exploredUnder(mutantNamed('deleted-key-still-listed').modify);
    expect(explored('KEY-6').status).toBe('warn');
    expect(explored('KEY-6').reason).toMatch(/is still in the key list, in the sequence /);
    for (const clause of ['KEY-1', 'KEY-3', 'KEY-5']) expect(explored(clause).status, clause).toBe('pass');
    // The cover's sequences, then those drawn from the seed: the departure cut nothing.
    const sequences = JSON.stringify(explored('KEY-1'));
    expect(sequences).toMatch(/drawn 1: /);
    expect(sequences).toMatch(/KEY-6 \(a SHOULD, allowed from here on\)/);
  }, 240_000);
});

describe('an explorer finding', () => {
  const mutant = mutantNamed('key-id-counter-steps-back');
  const args = ['--only', 'KEY', '--seed', '5', '--property-runs', '25'];

  test('names its sequence of steps and its seed in every report format, with the steps as evidence; the same seed finds the same sequence', async () => {
    const [first, again] = await Promise.all([runAgainstReference({ modify: mutant.modify }, args), runAgainstReference({ modify: mutant.modify }, args)]);
    const explored = (run: typeof first) => run.report.clauses.find((c) => c.id === 'KEY-1')!.checks.find((c) => c.key === 'explored-lifecycle')!;
    const check = explored(first);
    expect(check.status).toBe('fail');
    // A key created right after the newest was deleted (by KEY's own checks, or by the cover's first sequence) is born revoked.
    expect(check.reason).toMatch(
      /^k\d, created by .*, never authenticated within 10 s: its use answered 401, in the sequence the cover's sequence \d: create a key/,
    );
    expect(check.repro?.seed).toBe(5);
    expect(check.repro?.counterexample).toMatch(/^the cover's sequence \d: /);
    // Every step's answer, each with its curl line.
    expect(check.evidence!.length).toBeGreaterThanOrEqual(2);
    expect(check.repro?.curl?.length).toBe(check.evidence!.length);
    expect(explored(again).repro?.counterexample).toBe(check.repro?.counterexample);
    const summary = readFileSync(join(first.reportDir, 'summary.md'), 'utf8');
    expect(summary).toMatch(/KEY-1 \| MUST \| fail \| .*in the sequence the cover's sequence \d/);
    const junit = readFileSync(join(first.reportDir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/property seed 5/);
    const html = readFileSync(join(first.reportDir, 'report.html'), 'utf8');
    expect(html).toMatch(/shrunk input <code>the cover(&#39;|&#x27;|')s sequence \d/);
  }, 240_000);
});
