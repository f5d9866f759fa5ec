import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { Facts } from '../src/init/probe-profile.js';
import { loadProfile } from '../src/profile/profile.js';
import { ROOT } from './support/cli.js';
import { readJson, runConformance, scratch } from './support/commands.js';
import { beforeItem } from '../mutants/support.js';
import { startReference } from '../reference/server.js';
import { startBlind } from './support/blind.js';

/** Facts init learns by reading alone: no key created, nothing written on the target. */
const WITHOUT_SIDE_EFFECTS = [
  'paths.workspace',
  'paths.governanceModel',
  'paths.record',
  'paths.taxonomies',
  'paths.taxonomy',
  'paths.fields',
  'paths.field',
  'paths.picklists',
  'paths.picklist',
  'paths.apiKeyList',
  'paths.submissionList',
  'limits.perKeyPerMinute',
  'limits.unauthenticatedPerMinute',
  'submissions.workspaceQueryParam',
  'submissions.workspaceQueryParamRequired',
  'submissions.requiredBodyFields',
  'forbiddenProbe',
];

/** `init` against an implementation written blind: its output, the facts it drew, and the profile the implementation declares. */
async function initOnBlind(name: 'node' | 'enterprise') {
  const target = await startBlind(1, name);
  try {
    const out = join(scratch(), 'draft.json');
    const result = await runConformance(['init', '--base-url', target.url, '--out', out], { CONFORMANCE_API_KEY: target.keys.main });
    expect(result.exitCode, result.stderr).toBe(0);
    const { facts } = readJson<{ facts: Facts }>(out.replace(/\.json$/, '.facts.json'));
    return { target, result, facts, own: target.profile as unknown as Record<string, unknown> };
  } catch (error) {
    await target.close();
    throw error;
  }
}

function at(profile: Record<string, unknown>, place: string): unknown {
  return place.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], profile);
}

test('init against the reference writes a valid profile equal to the shipped one in every fact found, the rest marked guessed or not found', async () => {
  const target = await startReference({});
  try {
    const auth = { authorization: `Bearer ${target.keys.main}` };
    const keyCount = async () =>
      ((await (await fetch(`${target.url}/api/v1/api_keys?limit=100`, { headers: auth })).json()) as { total_count: number }).total_count;
    const keysBefore = await keyCount();
    const out = join(scratch(), 'draft.json');
    const result = await runConformance(['init', '--base-url', target.url, '--out', out], { CONFORMANCE_API_KEY: target.keys.main });
    expect(result.exitCode, result.stderr).toBe(0);
    const draft = loadProfile(out);
    const written = JSON.parse(draft.text) as Record<string, unknown>;
    const shipped = JSON.parse(readFileSync(join(ROOT, 'profiles/reference.json'), 'utf8')) as Record<string, unknown>;
    const { facts } = readJson<{ facts: Facts }>(out.replace(/\.json$/, '.facts.json'));

    for (const place of WITHOUT_SIDE_EFFECTS) {
      expect(facts[place]?.how, place).toBe('found');
      expect(at(written, place), place).toEqual(at(shipped, place));
    }
    // The key's fields, prefix and delete path come from a key created and deleted again.
    for (const [place, fact] of Object.entries(facts)) {
      expect(['found', 'guessed', 'not found'], place).toContain(fact.how);
      expect(fact.why, place).toBeTruthy();
      expect(at(written, place), place).toEqual(fact.value);
      if (fact.how === 'found') expect(fact.value, place).toEqual(at(shipped, place));
      if (fact.how === 'not found') expect(fact.value, place).toBeNull();
    }
    expect(facts.keyPrefix).toMatchObject({ how: 'found', value: 'sk_' });
    expect(facts['submissions.acceptsAnyData']?.how).toBe('not found');
    // The reference's submission list is empty: no filter can be seen to narrow it, so none is kept.
    expect(facts['submissions.listFilters.workspace']).toMatchObject({ how: 'not found', value: null });

    // It leaves nothing behind and says no secret.
    expect(await keyCount()).toBe(keysBefore);
    const submissions = await fetch(`${target.url}/api/v1/submissions`, { headers: auth });
    expect(((await submissions.json()) as { total_count: number }).total_count).toBe(0);
    expect(result.stdout + readFileSync(out, 'utf8')).not.toContain(target.keys.main);
    expect(result.stdout).toMatch(/profile draft: .*draft\.json \(\d+ facts found, \d+ guessed, \d+ not found: /);
    expect(result.stdout).not.toMatch(/^  (found|not found) .*= null/m);
  } finally {
    await target.close();
  }
});

test('a key init could not delete is in the ledger, and `cleanup` deletes it', async () => {
  let refusals = 1;
  const target = await startReference({
    modify: (reference) =>
      beforeItem(reference, 'apiKey', 'DELETE', async (_id, _req, reply) => {
        // A 500 is the API's answer, never retried (a 503 would be a front end's, sent again).
        if (refusals-- > 0) await reply.code(500).send({ error: { type: 'api_error', code: null, message: 'try later', param: null, path: null } });
      }),
  });
  try {
    const auth = { authorization: `Bearer ${target.keys.main}` };
    const keyCount = async () =>
      ((await (await fetch(`${target.url}/api/v1/api_keys?limit=100`, { headers: auth })).json()) as { total_count: number }).total_count;
    const keysBefore = await keyCount();
    const dir = scratch();
    const env = { CONFORMANCE_API_KEY: target.keys.main };
    // A process of its own, which has ended when `cleanup` runs: a key whose run is still going
    // (its process alive, as a run host stays) is left alone (src/cli/commands/cleanup.ts).
    const init = await runConformance(
      ['init', '--base-url', target.url, '--out', join(dir, 'draft.json'), '--report-dir', join(dir, 'reports')],
      env,
      scratch(),
      {
        process: true,
      },
    );
    expect(init.exitCode, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/WARNING: DELETE .* answered 500: the key .* is in the ledger/);
    expect(await keyCount()).toBe(keysBefore + 1);
    expect(readFileSync(join(dir, 'reports', 'ledger.jsonl'), 'utf8')).toMatch(/"event":"created","kind":"api_key".*-init"/);

    const profile = join(dir, 'profile.json');
    writeFileSync(profile, JSON.stringify(target.profile));
    const cleanup = await runConformance(['cleanup', '--base-url', target.url, '--profile', profile, '--report-dir', join(dir, 'reports')], env);
    expect(cleanup.exitCode, cleanup.stdout + cleanup.stderr).toBe(0);
    expect(await keyCount()).toBe(keysBefore);
  } finally {
    await target.close();
  }
});

test('init finds what an implementation written blind puts elsewhere: singular retrievals, its field list, its key path and id, the required body fields', async () => {
  // variants/blind-node: /api/v1/workspace/{id}, /api/v1/taxonomy_fields, DELETE /api/v1/api_key/{id} by `key_id`.
  const { target, result, facts, own } = await initOnBlind('node');
  try {
    for (const place of [
      'paths.workspace',
      'paths.governanceModel',
      'paths.record',
      'paths.fields',
      'paths.field',
      'paths.apiKeyList',
      'paths.apiKey',
      'apiKeyFields.id',
      'apiKeyFields.secret',
      'submissions.requiredBodyFields',
    ]) {
      expect(facts[place], place).toMatchObject({ how: 'found', value: at(own, place) });
    }
    expect(result.stdout).not.toContain('WARNING');
  } finally {
    await target.close();
  }
});

test('init on an implementation that chose the open facts its own way: what it did not find is "not found: declare it", never a value; links and narrowing filters found', async () => {
  // variants/blind-enterprise: HAL _links, camelCase filters (workspaceId), a key prefix of its own, UUIDs.
  const { target, result, facts, own } = await initOnBlind('enterprise');
  try {
    // Its filters are named by its own links and kept because they narrow a list that holds items.
    for (const place of ['paths.submissionList', 'submissions.listFilters.workspace', 'submissions.listFilters.taxonomy'])
      expect(facts[place], place).toMatchObject({ how: 'found', value: at(own, place) });
    const notFound = Object.entries(facts).filter(([, f]) => f.how === 'not found');
    for (const [place, fact] of notFound) {
      expect(fact.value, place).toBeNull();
      expect(fact.why, place).toMatch(/: declare it$/);
      expect(result.stdout).toContain(`  not found ${place}: `);
    }
    expect(result.stdout).not.toMatch(/^  (found|not found) .*= null/m);
    const counts = result.stdout.match(/\((\d+) facts found, (\d+) guessed, (\d+) not found: /);
    expect(counts, result.stdout).not.toBeNull();
    expect(Number(counts![3])).toBe(notFound.length);
    expect(Number(counts![1]) + Number(counts![2]) + Number(counts![3])).toBe(Object.keys(facts).length);
  } finally {
    await target.close();
  }
});
