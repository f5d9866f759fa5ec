import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadProfile } from '../src/profile/profile.js';
import { ROOT, runAgainstReference } from './support/cli.js';
import { describe429s } from './support/rate-evidence.js';
import { failureEvidence } from './support/failure-evidence.js';

// Two whole runs of the reference, each judged twice. No false failures: the reference passes
// every check, under the shipped profile and under an alternate one in which every fact the
// document leaves open differs. And (issue 5) the suite handles live secrets and must never write
// one: the reference records every key it issues, and every byte the run produced is searched.

const PROFILES = ['reference', 'alternate'] as const;

/** Every spelling of a secret the search looks for, written here independently of the redactor. */
function spellings(secret: string, prefix: string): string[] {
  const out = [secret, encodeURIComponent(secret)];
  const bytes = Buffer.from(secret);
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const middle = encoded.slice(shift === 0 ? 0 : 4, Math.floor((bytes.length + shift) / 3) * 4);
    out.push(middle, middle.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  // "A part of the secret": 8 consecutive characters after the prefix (clause catalogue, KEY).
  const body = secret.startsWith(prefix) ? secret.slice(prefix.length) : secret;
  for (let i = 0; i + 8 <= body.length; i++) out.push(body.slice(i, i + 8));
  return out;
}

/** Forms shorter than this are searched for one by one; the rest by their first GRAM characters. */
const GRAM = 8;

/**
 * The `index` of every form that occurs in `text`, searched in one pass: a thousand forms searched
 * one by one through a report folder's 20 MB held the thread for some 30 s.
 */
function* occurring(text: string, forms: readonly { form: string; index: number }[]): Generator<number> {
  const byGram = new Map<string, { form: string; index: number }[]>();
  for (const f of forms) {
    if (f.form.length < GRAM) {
      if (text.includes(f.form)) yield f.index;
    } else byGram.set(f.form.slice(0, GRAM), [...(byGram.get(f.form.slice(0, GRAM)) ?? []), f]);
  }
  for (let at = 0; at + GRAM <= text.length; at++) {
    for (const f of byGram.get(text.slice(at, at + GRAM)) ?? []) if (text.startsWith(f.form, at)) yield f.index;
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** A whole run against the reference under a profile, with every key the reference issued; made once for both tests. */
function wholeRun(name: (typeof PROFILES)[number]) {
  const issued: string[] = [];
  const run = runAgainstReference({
    profile: loadProfile(`${ROOT}profiles/${name}.json`).profile,
    modify: ({ state }) => {
      const create = state.store.createKey.bind(state.store);
      state.store.createKey = (account, keyName) => {
        const created = create(account, keyName);
        issued.push(created.secret);
        return created;
      };
    },
  });
  return run.then((result) => ({ ...result, issued }));
}

const runs = new Map<string, ReturnType<typeof wholeRun>>();
const runUnder = (name: (typeof PROFILES)[number]) => runs.get(name) ?? runs.set(name, wholeRun(name)).get(name)!;

describe.concurrent('the reference', () => {
  test.each(PROFILES)('is conformant with no warning, failure or suite fault under the %s profile', async (name) => {
    const run = await runUnder(name);
    const flagged = run.report.clauses.filter((c) => ['fail', 'warn', 'error'].includes(c.status)).map((c) => `${c.id} ${c.status}: ${c.reason}`);
    expect(flagged, failureEvidence(run.report)).toEqual([]);
    expect(run.report.suiteFaults).toEqual([]);
    expect(run.report.verdict).toBe('conformant');
    expect(run.exitCode).toBe(0);
    expect(run.report.environment.unplanned429, describe429s(run.reportDir)).toBe(0);
  });

  test.each(PROFILES)('a whole run under the %s profile writes no secret anywhere: stdout, stderr and every report file', async (name) => {
    // The search below holds this thread for seconds, and each run's reference serves from this
    // thread: searching while the other run goes on left its reference silent past the run's
    // timeout (a RATE-7 request unanswered in 10 s, seen under a loaded full npm test).
    await Promise.all(PROFILES.map(runUnder));
    const run = await runUnder(name);
    const secrets = [run.target.keys.main, run.target.keys.other, ...run.issued];
    // The run did create keys and reveal them, or the search proves nothing.
    expect(run.issued.length).toBeGreaterThan(5);
    expect(run.exitCode).toBe(0);

    const outputs: [string, string][] = [
      ['stdout', run.stdout],
      ['stderr', run.stderr],
      ...filesUnder(run.reportDir).map((file): [string, string] => [file, readFileSync(file, 'latin1')]),
    ];
    expect(outputs.length).toBeGreaterThan(4);
    const prefix = run.report.profile.content as { keyPrefix?: string | null };
    const forms = secrets.flatMap((secret, index) => spellings(secret, prefix.keyPrefix ?? 'sk_').map((form) => ({ form, index })));
    // The search finds what it looks for: a secret, and the base64 of one in a Basic header.
    expect([...occurring(`x ${run.issued[0]} y Basic ${Buffer.from(`:${run.issued[1]}`).toString('base64')}`, forms)]).toEqual(expect.arrayContaining([2, 3]));
    const found = outputs.flatMap(([where, text]) => [...new Set(occurring(text, forms))].map((index) => `secret ${index} in ${where}`));
    expect(found).toEqual([]);
  });
});
