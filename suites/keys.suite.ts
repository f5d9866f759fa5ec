import { check } from '../src/check/check.js';
import { sleep } from '../src/sleep.js';
import { Finding } from '../src/check/outcome.js';
import type { CheckContext } from '../src/check/context.js';
import type { HttpResponse } from '../src/http/client.js';
import { errorOf, hasValueAnywhere } from '../src/judge/errors.js';
import {
  adoptCreatedKey,
  asCreated,
  createKey,
  deleteKey,
  discardKey,
  findListed,
  KEY_CREATION_PATH,
  keyForCheck,
  keyName,
  PROBE_PATH,
  readKeyList,
  type CreatedKey,
  type KeyListPage,
  type UsableKey,
} from './support/keys.js';
import { postUnusedKey } from './support/unused-key.js';

// KEY: the API key lifecycle (API document, Other resources; Details and open points; Authentication).
// Every key a check creates is deleted by the check, and by the run's cleanup when the check
// could not (the ledger lists it). KEY-4 is judged over the whole run (suites/run-wide.suite.ts).
// Without a key path in the profile, keys cannot be deleted: the checks of clauses that need no
// key path still create theirs, and the report lists the keys left on the target.

const WRITES = { writes: true } as const;

/** Time allowed for a last-use time to show a use: a target may write it asynchronously. */
const LAST_USE_SETTLE_MS = 5_000;

check(
  'KEY-1',
  'creating a key with a name reveals a complete key that authenticates within 10 s',
  async (t) => {
    const key = await createKey(t, 'created');
    try {
      const use = key.firstUse;
      t.ensure(use.accepted?.status === 200, () => `the key from the creation response did not authenticate within 10 s: [GET] ${PROBE_PATH} answered ${use.last?.status}`, key.response, ...(use.last ? [use.last] : []));
    } finally {
      await discardKey(t, key);
    }
  },
  WRITES,
);

check(
  'KEY-2',
  'a new key authenticates on its very first request',
  async (t) => {
    let key: UsableKey | null = null;
    try {
      key = await createKey(t, 'first-use');
    } catch (error) {
      if (!(error instanceof Finding)) throw error;
      t.skip(`no usable key could be created (${error.reason}): KEY-1 judges creation`);
    }
    try {
      const first = key!.firstUse.first!;
      t.ensure(first.status === 200, () => `the very first request with a new key answered ${first.status}, expected 200`, key!.response, first);
    } finally {
      await discardKey(t, key);
    }
  },
  WRITES,
);

check(
  'KEY-3',
  "the key list shows a key's name and last-use time and no part of any secret",
  async (t) => {
    const key = await keyForCheck(t, 'listed');
    try {
      const pages = await readKeyList(t);
      const secrets = await t.runtime.knownSecrets();
      // The body is what the list shows; headers are every response's business (KEY-4).
      for (const { res } of pages) {
        t.ensure(!secrets.leaks(res.text), 'the key list contains 8 or more consecutive characters of a key secret', res);
      }
      const listed = findListed(t, pages, key);
      t.ensure(listed !== null, () => `the key list does not show the key named ${key.name}`, ...pages.map((p) => p.res));
      const { name, lastUsedAt } = t.profile.apiKeyFields;
      const { item, res } = listed!;
      t.ensure(item[name!] === key.name, () => `the listed key's "${name}" is ${JSON.stringify(item[name!])}, expected ${JSON.stringify(key.name)}`, res);
      t.ensure(lastUsedAt! in item, () => `the listed key has no "${lastUsedAt}" member (its last-use time)`, res);
      const used = item[lastUsedAt!];
      t.ensure(used === null || (typeof used === 'string' && !Number.isNaN(Date.parse(used))), () => `the listed key's "${lastUsedAt}" is ${JSON.stringify(used)}, not a time`, res);
    } finally {
      await discardKey(t, key);
    }
  },
  WRITES,
);

check(
  'KEY-3',
  'a new key is listed with its last-use member before its first use (null or a time) and after it',
  async (t) => {
    const name = keyName(t, 'never-used');
    const created = await postUnusedKey(t, KEY_CREATION_PATH, name);
    // The list is read before the key's first request; the key is adopted (its secret found by
    // using it, redacted, recorded for deletion) whatever the reading met.
    let before: KeyListPage[] | Error;
    try {
      before = await readKeyList(t);
    } catch (error) {
      before = error as Error;
    }
    const key = await adoptCreatedKey(t, created, name);
    try {
      if (before instanceof Error) throw before;
      if (!key) t.skip(`creating a key answered ${created.status}: KEY-1 judges creation`);
      ensureLastUseListed(t, before, key!, 'before its first use', await t.runtime.knownSecrets());
      if (!key!.firstUse.accepted) t.skip(`the new key never authenticated (last answer ${key!.firstUse.last?.status ?? 'none'}): KEY-1 judges that`);
      // Used now (its first request found its secret): the member is still there, null or a time
      // (a target may write the time late: KEY-7 waits for it).
      ensureLastUseListed(t, await readKeyList(t), key!, 'after its first use', await t.runtime.knownSecrets());
    } finally {
      await discardKey(t, key);
    }
  },
  WRITES,
);

/** The key is listed, no list page shows a part of a secret, and its last-use member is there: null or a time. */
function ensureLastUseListed(t: CheckContext, pages: readonly KeyListPage[], key: CreatedKey, when: string, secrets: { leaks(text: string): boolean }): void {
  for (const { res } of pages) t.ensure(!secrets.leaks(res.text), 'the key list contains 8 or more consecutive characters of a key secret', res);
  const listed = findListed(t, pages, key);
  t.ensure(listed !== null, () => `the key list does not show the key named ${key.name} ${when}`, ...pages.map((p) => p.res));
  const { lastUsedAt } = t.profile.apiKeyFields;
  const { item, res } = listed!;
  t.ensure(lastUsedAt! in item, () => `the listed key has no "${lastUsedAt}" member (its last-use time) ${when}: the list shows each key's last-use time, null for none`, res);
  const used = item[lastUsedAt!];
  t.ensure(used === null || (typeof used === 'string' && !Number.isNaN(Date.parse(used))), () => `the listed key's "${lastUsedAt}" is ${JSON.stringify(used)} ${when}, neither null nor a time`, res);
}

/** Item paths of the profile, by the collection whose listed ids (seen by the preflight) fill them. */
const ITEM_PATHS = { workspace: 'workspaces', governanceModel: 'governanceModels', record: 'records', taxonomy: 'taxonomies', field: 'fields', picklist: 'picklists' } as const;

/** Fills an item path where the preflight saw no id: a 404 is an answer that could leak too. */
const NO_SUCH_ID = 'conformance-no-such-id';

/** A request KEY-4 makes and what it says of it. */
interface PathProbe {
  readonly res: HttpResponse;
  readonly as: string;
}

check(
  'KEY-4',
  "GET on every path the profile declares and on the key's own path, and HEAD and OPTIONS on the key's paths, show no part of a new key's secret, before and after its deletion",
  async (t) => {
    const key = await keyForCheck(t, 'every-path');
    const deletion = t.run.keyDeletion.path ?? t.profile.paths.apiKey;
    const own = deletion && key.id ? deletion.replace('{id}', encodeURIComponent(key.id)) : null;
    const paths = everyPath(t, own);
    const probes: PathProbe[] = [];
    let deleted = false;
    try {
      // The key acts as its account: it sees everything the account sees, itself in the key list.
      for (const path of paths) probes.push({ res: await t.http.get(path, { auth: asCreated(key) }), as: 'with the new key' });
      // HEAD and OPTIONS only where the key itself lives: a target may refuse both (404, 405); only the secret counts.
      for (const path of [own, t.profile.paths.apiKeyList ?? KEY_CREATION_PATH].filter((p): p is string => p !== null)) {
        for (const method of ['HEAD', 'OPTIONS']) probes.push({ res: await t.http.send({ method, path, auth: asCreated(key) }), as: 'with the new key' });
      }
      if (own) {
        const res = await deleteKey(t, key);
        deleted = res.status >= 200 && res.status < 300;
      }
      if (deleted) {
        for (const path of paths) probes.push({ res: await t.http.get(path), as: 'with the main key after the new key was deleted' });
        probes.push({ res: await t.http.get(own!, { auth: asCreated(key) }), as: 'with the deleted key' });
      }
    } finally {
      if (!deleted) await discardKey(t, key);
    }
    const secrets = await t.runtime.knownSecrets();
    const leaking = probes.filter(({ res }) => secrets.leaks(res.text) || secrets.leaks(Object.values(res.headers).join('\n')));
    const where = ({ res, as }: PathProbe) => `[${res.exchange.request.method}] ${new URL(res.exchange.request.url).pathname} ${as} (${res.status})`;
    const more = leaking.length > 1 ? ` (and ${leaking.length - 1} more response(s))` : '';
    t.ensure(leaking.length === 0, () => `${where(leaking[0]!)} contains 8 or more consecutive characters of a key secret${more}`, ...leaking.slice(0, 3).map((p) => p.res));
    if (!deleted) t.skip(own ? 'the key could not be deleted: KEY-5 judges deletion; no part of its secret was shown while it lived' : 'the key cannot be deleted here (no key path or key id): no part of its secret was shown while it lived');
  },
  WRITES,
);

/**
 * Every path KEY-4 asks with GET: the document's lists and creation paths, each path the profile
 * declares (an item path filled with an id the preflight listed), the key's own path and the
 * forbidden probe's path.
 */
function everyPath(t: CheckContext, own: string | null): string[] {
  const out = new Set<string>(['/api/v1/workspaces', '/api/v1/governance_models', '/api/v1/records', '/api/v1/submissions', KEY_CREATION_PATH]);
  for (const [name, template] of Object.entries(t.profile.paths)) {
    if (!template || name === 'apiKey') continue;
    const collection = ITEM_PATHS[name as keyof typeof ITEM_PATHS];
    const id = collection ? (t.run.preflight.collections[collection]?.ids[0] ?? NO_SUCH_ID) : NO_SUCH_ID;
    out.add(template.replace('{id}', encodeURIComponent(id)));
  }
  if (own) out.add(own);
  if (t.profile.forbiddenProbe) out.add(t.profile.forbiddenProbe.path);
  return [...out];
}

check(
  'KEY-5',
  'a deleted key is 401 authentication_error on the very next request, and a second later',
  async (t) => {
    const key = await keyForCheck(t, 'revoked');
    let gone = false;
    try {
      const deleted = await deleteKey(t, key);
      t.ensure(deleted.status >= 200 && deleted.status < 300, () => `deleting the key answered ${deleted.status}, expected 2xx`, deleted);
      gone = true;
      const next = await t.http.get(PROBE_PATH, { auth: asCreated(key) });
      ensureRevoked(t, next, 'the very next request with the deleted key', deleted);
      await sleep(1000);
      const later = await t.http.get(PROBE_PATH, { auth: asCreated(key) });
      ensureRevoked(t, later, 'a request with the deleted key a second later', deleted);
    } finally {
      if (!gone) await discardKey(t, key);
    }
  },
  WRITES,
);

function ensureRevoked(t: CheckContext, res: HttpResponse, what: string, deletion: HttpResponse): void {
  t.ensure(res.status === 401, () => `${what} answered ${res.status}, expected 401`, deletion, res);
  t.ensure(hasValueAnywhere(res.json, 'authentication_error'), () => `${what} answered 401 without naming the type "authentication_error"`, deletion, res);
}

check(
  'KEY-6',
  'a deleted key leaves the list, and deleting it again is 404 not_found_error',
  async (t) => {
    const key = await keyForCheck(t, 'deleted-twice');
    const first = await deleteKey(t, key);
    if (first.status < 200 || first.status >= 300) t.skip(`deleting the key answered ${first.status}: KEY-5 judges deletion`);
    const pages = await readKeyList(t);
    const still = findListed(t, pages, key);
    t.ensure(still === null, () => `the key list still shows the deleted key ${key.name}`, first, still?.res ?? first);
    const again = await deleteKey(t, key);
    t.ensure(again.status === 404, () => `deleting the key a second time answered ${again.status}, expected 404`, first, again);
    const type = errorOf(again.json)?.type;
    t.ensure(type === 'not_found_error', () => `the second deletion's 404 has type ${JSON.stringify(type ?? null)}, expected "not_found_error"`, again);
  },
  WRITES,
);

check(
  'KEY-7',
  'the last-use time of a key moves forward after the key is used',
  async (t) => {
    const key = await keyForCheck(t, 'last-use');
    try {
      // The key was used when it was created; a target may write the time a few seconds later.
      const before = await lastUseUntil(t, key, (value) => typeof value === 'string');
      t.ensure(typeof before.value === 'string', () => `the key was used but its last-use time is still ${JSON.stringify(before.value)} ${LAST_USE_SETTLE_MS / 1000} s later`, before.res);
      // Last-use times may have a resolution of one second.
      await sleep(1100);
      const use = await t.http.get(PROBE_PATH, { auth: asCreated(key) });
      t.ensure(use.status === 200, () => `using the key again answered ${use.status}`, use);
      const after = await lastUseUntil(t, key, (value) => movedOn(before.value as string, value));
      t.ensure(movedOn(before.value as string, after.value), () => `the last-use time stayed ${JSON.stringify(after.value)} after the key was used again (before: ${JSON.stringify(before.value)})`, before.res, use, after.res);
    } finally {
      await discardKey(t, key);
    }
  },
  WRITES,
);

/** The key's last-use time, read again once a second for up to LAST_USE_SETTLE_MS until `settled` holds. */
async function lastUseUntil(t: CheckContext, key: CreatedKey, settled: (value: unknown) => boolean): Promise<{ value: unknown; res: HttpResponse }> {
  const deadline = Date.now() + LAST_USE_SETTLE_MS;
  let seen = await lastUse(t, key);
  while (!settled(seen.value) && Date.now() < deadline) {
    await sleep(1000);
    seen = await lastUse(t, key);
  }
  return seen;
}

async function lastUse(t: CheckContext, key: CreatedKey): Promise<{ value: unknown; res: HttpResponse }> {
  const pages = await readKeyList(t);
  const listed = findListed(t, pages, key);
  if (!listed) t.skip(`the key list does not show the key ${key.name}: KEY-3 judges that`);
  return { value: listed!.item[t.profile.apiKeyFields.lastUsedAt!], res: listed!.res };
}

function movedOn(before: string, after: unknown): boolean {
  return typeof after === 'string' && Date.parse(after) > Date.parse(before);
}

check(
  'KEY-8',
  'creating a key without name is 400, not 422',
  async (t) => {
    const res = await t.http.post(KEY_CREATION_PATH, {});
    if (res.status >= 200 && res.status < 300) {
      await discardKey(t, await adoptCreatedKey(t, res, null));
      t.fail('creating a key without name succeeded, expected 400', res);
    }
    t.ensure(res.status !== 422, 'creating a key without name answered 422: a missing required parameter is 400 (Errors, rule 1)', res);
    t.ensure(res.status === 400, () => `creating a key without name answered ${res.status}, expected 400`, res);
  },
  WRITES,
);

