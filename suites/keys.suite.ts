import {
  check,
  endedAt,
  sleep,
  suiteNow,
  type CheckContext,
  type HttpResponse,
  errorOf,
  hasValueAnywhere,
  collections,
  fillPath,
  KEY_CREATION_PATH,
  PROBE_PATH,
  type CreatedKey,
  type UsableKey,
  profileFact,
  leakingTexts,
  KEY_PROPAGATION_MS,
} from '../src/kit.js';

// KEY: the API key lifecycle (API document, Other resources; Details and open points; Authentication).
// Every key a check creates is deleted by the check, and by the run's cleanup when the check
// could not (the ledger lists it). KEY-4 is judged over the whole run (suites/run-wide.suite.ts).
// Without a key path in the profile, keys cannot be deleted: the checks of clauses that need no
// key path still create theirs, and the report lists the keys left on the target.

/**
 * Every check works on keys of its own (and some wait a second on them: a revocation, a last-use
 * time): they run beside each other, so that their waits overlap.
 */
const WRITES = { writes: true, concurrent: true } as const;

/** Time allowed for a last-use time to show a use: a target may write it asynchronously. */
const LAST_USE_SETTLE_MS = 5_000;
/** How long a key list may take to show a key's creation or deletion (KEY-1's allowance for a new key, `t.keys.listUntil`). */
const KEY_PROPAGATION_S = KEY_PROPAGATION_MS / 1000;

check(
  'KEY-1',
  'creating a key with a name reveals a complete key that authenticates within 10 s',
  async (t) => {
    const key = await t.keys.create('created');
    try {
      const use = key.firstUse;
      t.ensure(
        use.accepted?.status === 200,
        () => `the key from the creation response did not authenticate within 10 s: [GET] ${PROBE_PATH} answered ${use.last?.status}`,
        key.response,
        ...(use.last ? [use.last] : []),
      );
    } finally {
      await t.keys.discard(key);
    }
  },
  { key: 'created-key-authenticates', states: ['fresh'], ...WRITES },
);

check(
  'KEY-2',
  'a new key authenticates on its very first request',
  async (t) => {
    // The first use is what this check judges: a key that took its time is kept.
    await t.keys.using(
      'first-use',
      async (key) => {
        const first = key.firstUse.first!;
        t.ensure(first.status === 200, () => `the very first request with a new key answered ${first.status}, expected 200`, key.response, first);
      },
      { mustAuthenticate: false },
    );
  },
  { key: 'first-request', states: ['fresh'], ...WRITES },
);

/**
 * A name one past a common storage bound (VARCHAR(255)): a target stores it whole, or refuses it at
 * creation (a cap on its length is the target's choice: 400 or 422); never cuts it short.
 */
const LONG_NAME = 256;

/** A key name for a message: a long one by its start and length. */
function nameOf(name: unknown): string {
  return typeof name === 'string' && name.length > 60 ? `${JSON.stringify(`${name.slice(0, 40)}…`)} (${name.length} characters)` : JSON.stringify(name);
}

check(
  'KEY-3',
  "the key list shows a key's name and last-use time and no part of any secret, a name of 256 characters whole",
  async (t) => {
    const long = await t.keys.post('listed', { nameLength: LONG_NAME });
    const adopted = await t.keys.adopt(long.res, long.name);
    // A cap on the name's length is conformant: the check goes on with a name of the usual length.
    const capped = adopted === null && (long.res.status === 400 || long.res.status === 422);
    if (adopted === null && !capped) t.skip(`creating a key answered ${long.res.status}: KEY-1 judges creation`);
    if (adopted !== null && !adopted.firstUse.accepted) {
      await t.keys.discard(adopted);
      t.skip(`the new key never authenticated (last answer ${adopted.firstUse.last?.status ?? 'none'}): KEY-1 judges that`);
    }
    const key = capped ? await t.keys.forCheck('listed') : (adopted as UsableKey);
    try {
      const pages = await t.keys.listUntil((read) => t.keys.findListed(read, key) !== null);
      // The body is what the list shows; headers are every response's business (KEY-4).
      const leaking = await t.secrets.leaking(pages.map(({ res }) => res.text));
      t.ensure(leaking.length === 0, 'the key list contains 8 or more consecutive characters of a key secret', ...leaking.map((i) => pages[i]!.res));
      const listed = t.keys.findListed(pages, key);
      t.ensure(
        listed !== null,
        () => `the key list does not show the key named ${nameOf(key.name)}, read again for ${KEY_PROPAGATION_S} s`,
        ...pages.map((p) => p.res),
      );
      const { name, lastUsedAt } = t.profile.apiKeyFields;
      const { item, res } = listed!;
      const shownName = item[name!];
      // A wrong member name explains a missing name as well as the target: the fact is named.
      t.ensure(
        shownName === key.name,
        () =>
          typeof shownName === 'string' && shownName.length < key.name.length && key.name.startsWith(shownName)
            ? `the listed key's "${name}" is the first ${shownName.length} of the ${key.name.length} characters it was created with: the name was cut short (a target may refuse a long name at creation, not shorten it)`
            : `the listed key's "${name}" is ${nameOf(shownName)}, expected ${nameOf(key.name)}${name! in item ? '' : ` (${profileFact(t.profile, 'apiKeyFields.name')}: is the name right?)`}`,
        key.response,
        res,
      );
      // A list that leaves null members out shows no member until the time is written, which may
      // be late (KEY-7): only a member still missing when the use must show is a missing time.
      const shown = lastUsedAt! in item ? { value: item[lastUsedAt!], res } : await lastUseUntil(t, key, (value) => value !== undefined);
      t.ensure(
        shown.value !== undefined,
        () =>
          `the listed key has no "${lastUsedAt}" member (its last-use time), ${LAST_USE_SETTLE_MS / 1000} s after its use (${profileFact(t.profile, 'apiKeyFields.lastUsedAt')}: is the name right?)`,
        shown.res,
      );
      t.ensure(isTimeOrNull(shown.value), () => `the listed key's "${lastUsedAt}" is ${JSON.stringify(shown.value)}, not a time`, shown.res);
    } finally {
      await t.keys.discard(key);
    }
  },
  { key: 'listed-key', states: ['used'], values: ['long'], ...WRITES },
);

check(
  'KEY-3',
  'a key used only to write, its one request the deletion of another key, is listed with the time of that use',
  async (t) => {
    const other = await t.keys.forCheck('deleted-by-key');
    let otherGone = false;
    let key: CreatedKey | null = null;
    try {
      const { name, res: created } = await t.keys.post('written-only');
      // Its first and only request is a write, by which its secret is found: a key that only
      // deletes keys or submits data is used too ("each key's ... last-use time").
      key = await t.keys.adopt(created, name, { use: (auth) => t.keys.delete(other, auth) });
      if (!key) t.skip(`creating a key answered ${created.status}: KEY-1 judges creation`);
      const write = key!.firstUse.accepted;
      if (!write || write.status < 200 || write.status >= 300)
        t.skip(`the new key's one request, the deletion of another key, answered ${key!.firstUse.last?.status ?? 'nothing'}: KEY-5 judges deletion`);
      otherGone = true;
      const shown = await lastUseUntil(t, key!, (value) => timeOf(value) !== null);
      t.ensure(
        timeOf(shown.value) !== null,
        () =>
          `a key used only to write ([DELETE] of another key answered ${write!.status}) is listed with "${t.profile.apiKeyFields.lastUsedAt}" ${JSON.stringify(shown.value)} ${LAST_USE_SETTLE_MS / 1000} s later: its use is not shown`,
        write!,
        shown.res,
      );
    } finally {
      if (!otherGone) await t.keys.discard(other);
      await t.keys.discard(key);
    }
  },
  { key: 'written-only-key-listed', states: ['used to write'], ...WRITES },
);

check(
  'KEY-3',
  'a key never used is listed too, before its first use, its last-use time null, a time or not shown yet',
  async (t) => {
    const { name, res: created } = await t.keys.post('never-used');
    // The list is read before the key's first request (again, while it does not show the name, for
    // as long as a new key may take to take effect); the key is adopted (its secret found by using
    // it, redacted, recorded for deletion) whatever the reading met.
    const nameField = t.profile.apiKeyFields.name;
    const showsName = (read: readonly { items: readonly Record<string, unknown>[] }[]) =>
      !nameField || read.some(({ items }) => items.some((item) => item?.[nameField] === name));
    const before = await t.attempt(() => t.keys.listUntil(showsName));
    const key = await t.keys.adopt(created, name);
    try {
      if (before.outcome !== 'done') return before.rethrow();
      if (!key) t.skip(`creating a key answered ${created.status}: KEY-1 judges creation`);
      const leaking = await t.secrets.leaking(before.value.map(({ res }) => res.text));
      t.ensure(leaking.length === 0, 'the key list contains 8 or more consecutive characters of a key secret', ...leaking.map((i) => before.value[i]!.res));
      const listed = t.keys.findListed(before.value, key!);
      t.ensure(
        listed !== null,
        () => `the key list does not show the key named ${key!.name} before its first use, read again for ${KEY_PROPAGATION_S} s: it shows each key`,
        ...before.value.map((p) => p.res),
      );
      // A key never used has no last-use time: null and no member at all both say so.
      const { lastUsedAt } = t.profile.apiKeyFields;
      const value = listed!.item[lastUsedAt!];
      t.ensure(
        value === undefined || isTimeOrNull(value),
        () => `the listed key's "${lastUsedAt}" is ${JSON.stringify(value)} before its first use, neither null nor a time`,
        listed!.res,
      );
    } finally {
      await t.keys.discard(key);
    }
  },
  { key: 'never-used-key-listed', states: ['fresh'], values: ['null', 'absent'], ...WRITES },
);

function isTimeOrNull(value: unknown): boolean {
  return value === null || timeOf(value) !== null;
}

/** Below this a number is a Unix time in seconds, from it on in milliseconds (1e11 s is the year 5138, 1e11 ms 1973). */
const MILLISECONDS_FROM = 1e11;

/**
 * A last-use time in milliseconds, or null for a value that is no time. The document names a
 * last-use time and shows no representation of it ("response field names of the key operations:
 * not shown"): a date-time string, or a Unix time in seconds or milliseconds, as a number or digits.
 */
function timeOf(value: unknown): number | null {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : null;
  if (number !== null) return Number.isFinite(number) && number > 0 ? (number < MILLISECONDS_FROM ? number * 1000 : number) : null;
  if (typeof value !== 'string') return null;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : parsed;
}

/** Item paths of the profile, by the collection whose listed ids (seen by the preflight) fill them. */
const ITEM_PATHS = {
  workspace: 'workspaces',
  governanceModel: 'governanceModels',
  record: 'records',
  taxonomy: 'taxonomies',
  field: 'fields',
  picklist: 'picklists',
} as const;

/** Fills an item path where the preflight saw no id: a 404 is an answer that could leak too. */
const NO_SUCH_ID = 'conformance-no-such-id';

/** What a response shows, where a secret may be: its body and its headers' values. */
const textsOf = (res: HttpResponse): string[] => [res.text, Object.values(res.headers).join('\n')];

/** A request KEY-4 makes and what it says of it. */
interface PathProbe {
  readonly res: HttpResponse;
  readonly as: string;
}

check(
  'KEY-4',
  "GET on every path the profile declares and on the key's own path, and HEAD and OPTIONS on the key's paths, show no part of a new key's secret, before and after its deletion",
  async (t) => {
    const key = await t.keys.forCheck('every-path');
    const deletion = t.run.keyDeletion.path ?? t.profile.paths.apiKey;
    const own = deletion && key.id ? deletion.replace('{id}', encodeURIComponent(key.id)) : null;
    const paths = everyPath(t, own);
    const probes: PathProbe[] = [];
    let deleted = false;
    try {
      // The key acts as its account: it sees everything the account sees, itself in the key list.
      for (const path of paths) probes.push({ res: await t.http.get(path, { auth: t.keys.credential(key) }), as: 'with the new key' });
      // HEAD and OPTIONS only where the key itself lives: a target may refuse both (404, 405); only the secret counts.
      for (const path of [own, t.profile.paths.apiKeyList ?? KEY_CREATION_PATH].filter((p): p is string => p !== null)) {
        for (const method of ['HEAD', 'OPTIONS'])
          probes.push({ res: await t.http.send({ method, path, auth: t.keys.credential(key) }), as: 'with the new key' });
      }
      if (own) {
        const res = await t.keys.delete(key);
        deleted = res.status >= 200 && res.status < 300;
      }
      if (deleted) {
        for (const path of paths) probes.push({ res: await t.http.get(path), as: 'with the main key after the new key was deleted' });
        probes.push({ res: await t.http.get(own!, { auth: t.keys.credential(key) }), as: 'with the deleted key' });
      }
    } finally {
      if (!deleted) await t.keys.discard(key);
    }
    // Body and headers of every probe, read together: chance alone puts 8 characters of a key in an id at times.
    const shown = await t.secrets.leaking(probes.flatMap(({ res }) => textsOf(res)));
    const leaking = probes.filter((_, i) => shown.includes(2 * i) || shown.includes(2 * i + 1));
    const where = ({ res, as }: PathProbe) => `[${res.exchange.request.method}] ${new URL(res.exchange.request.url).pathname} ${as} (${res.status})`;
    const more = leaking.length > 1 ? ` (and ${leaking.length - 1} more response(s))` : '';
    t.ensure(
      leaking.length === 0,
      () => `${where(leaking[0]!)} contains 8 or more consecutive characters of a key secret${more}`,
      ...leaking.slice(0, 3).map((p) => p.res),
    );
    if (!deleted)
      t.skip(
        own
          ? 'the key could not be deleted: KEY-5 judges deletion; no part of its secret was shown while it lived'
          : 'the key cannot be deleted here (no key path or key id): no part of its secret was shown while it lived',
      );
  },
  { key: 'secret-never-shown', states: ['fresh', 'used', 'deleted'], ...WRITES },
);

check(
  'KEY-4',
  "creating a key with a live key's name hands out a new key or is refused, never the live key's secret",
  async (t) => {
    await t.keys.using('same-name', async (live) => {
      // The same purpose makes the same name: this creation repeats the live key's. A target may
      // refuse it (409 conflict_error, 422); one that upserts by name hands the old secret out.
      const { name, res } = await t.keys.post('same-name');
      // Read before the new response is adopted: the secrets known are the live key's and the run's others.
      const known = await t.attempt(() => t.secrets.known());
      const again = await t.keys.adopt(res, name);
      try {
        if (known.outcome !== 'done') return known.rethrow();
        t.ensure(
          leakingTexts(known.value, textsOf(res)).length === 0,
          () =>
            `[POST] ${KEY_CREATION_PATH} with the name of a live key answered ${res.status} with 8 or more consecutive characters of a secret revealed before: a key is shown in full only at its creation`,
          live.response,
          res,
        );
      } finally {
        await t.keys.discard(again);
      }
    });
  },
  { key: 'same-name-creation', states: ['fresh'], values: ['repeated'], ...WRITES },
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
  'a deleted key is 401 authentication_error on the very next request, on every list and retrieval, and a second later',
  async (t) => {
    const key = await t.keys.forCheck('revoked');
    let gone = false;
    try {
      const deleted = await t.keys.delete(key);
      t.ensure(deleted.status >= 200 && deleted.status < 300, () => `deleting the key answered ${deleted.status}, expected 2xx`, deleted);
      gone = true;
      const next = await t.http.get(PROBE_PATH, { auth: t.keys.credential(key) });
      ensureRevoked(t, next, 'the very next request with the deleted key', deleted);
      // "The token stops working immediately": on every list and every retrieval, one request each.
      const swept: HttpResponse[] = [];
      for (const path of listsAndRetrievals(t)) swept.push(await t.http.get(path, { auth: t.keys.credential(key) }));
      // A 429 left after the client's retries is not judged: a target may count failed credentials per IP (RATE-7).
      const served = swept.filter((res) => res.status !== 429 && (res.status !== 401 || !hasValueAnywhere(res.json, 'authentication_error')));
      t.ensure(
        served.length === 0,
        () =>
          `[GET] ${new URL(served[0]!.exchange.request.url).pathname} with the deleted key answered ${served[0]!.status}, expected 401 authentication_error${served.length > 1 ? ` (and ${served.length - 1} more)` : ''}`,
        deleted,
        ...served.slice(0, 3),
      );
      // A second after the deletion was answered: the sweep's requests count toward the wait.
      await sleep(endedAt(deleted.exchange) + 1000 - suiteNow());
      const later = await t.http.get(PROBE_PATH, { auth: t.keys.credential(key) });
      ensureRevoked(t, later, 'a request with the deleted key a second later', deleted);
    } finally {
      if (!gone) await t.keys.discard(key);
    }
  },
  { key: 'deleted-key-refused', states: ['deleted'], ...WRITES },
);

/** Every list path and every retrieval path (filled with an id the preflight listed) of every collection. */
function listsAndRetrievals(t: CheckContext): string[] {
  const out: string[] = [];
  for (const { name, list, item } of Object.values(collections(t.profile))) {
    if (list) out.push(list);
    const collection = name as keyof typeof t.run.preflight.collections;
    if (item) out.push(fillPath(item, t.run.preflight.collections[collection]?.ids[0] ?? NO_SUCH_ID));
  }
  return out;
}

function ensureRevoked(t: CheckContext, res: HttpResponse, what: string, deletion: HttpResponse): void {
  t.ensure(res.status === 401, () => `${what} answered ${res.status}, expected 401`, deletion, res);
  t.ensure(hasValueAnywhere(res.json, 'authentication_error'), () => `${what} answered 401 without naming the type "authentication_error"`, deletion, res);
}

check(
  'KEY-6',
  'a deleted key leaves the list, and deleting it again is 404 not_found_error',
  async (t) => {
    const key = await t.keys.forCheck('deleted-twice');
    const first = await t.keys.delete(key);
    if (first.status < 200 || first.status >= 300) t.skip(`deleting the key answered ${first.status}: KEY-5 judges deletion`);
    const pages = await t.keys.listUntil((read) => t.keys.findListed(read, key) === null);
    const still = t.keys.findListed(pages, key);
    t.ensure(
      still === null,
      () => `the key list still shows the deleted key ${key.name}, read again for ${KEY_PROPAGATION_S} s after its deletion was answered`,
      first,
      still?.res ?? first,
    );
    const again = await t.keys.delete(key);
    t.ensure(again.status === 404, () => `deleting the key a second time answered ${again.status}, expected 404`, first, again);
    const type = errorOf(again.json)?.type;
    t.ensure(type === 'not_found_error', () => `the second deletion's 404 has type ${JSON.stringify(type ?? null)}, expected "not_found_error"`, again);
  },
  { key: 'deleted-key-gone', states: ['deleted'], ...WRITES },
);

check(
  'KEY-7',
  'the last-use time of a key moves forward after the key is used',
  async (t) => {
    await t.keys.using('last-use', async (key) => {
      // The key was used when it was created; a target may write the time a few seconds later.
      const before = await lastUseUntil(t, key, (value) => timeOf(value) !== null);
      t.ensure(
        timeOf(before.value) !== null,
        () => `the key was used but its last-use time is still ${JSON.stringify(before.value)} ${LAST_USE_SETTLE_MS / 1000} s later`,
        before.res,
      );
      // Last-use times may have a resolution of one second: the key is used again 1.1 s after its
      // last use (the first, as it was created), the reading of its time counting toward the wait.
      const lastUse = key.firstUse.last?.exchange;
      await sleep(lastUse ? endedAt(lastUse) + 1100 - suiteNow() : 1100);
      const use = await t.http.get(PROBE_PATH, { auth: t.keys.credential(key) });
      t.ensure(use.status === 200, () => `using the key again answered ${use.status}`, use);
      const after = await lastUseUntil(t, key, (value) => movedOn(before.value, value));
      t.ensure(
        movedOn(before.value, after.value),
        () => `the last-use time stayed ${JSON.stringify(after.value)} after the key was used again (before: ${JSON.stringify(before.value)})`,
        before.res,
        use,
        after.res,
      );
    });
  },
  { key: 'last-use-moves', states: ['used'], ...WRITES },
);

/** The key's last-use time, read again once a second for up to LAST_USE_SETTLE_MS until `settled` holds. */
async function lastUseUntil(t: CheckContext, key: CreatedKey, settled: (value: unknown) => boolean): Promise<{ value: unknown; res: HttpResponse }> {
  const deadline = suiteNow() + LAST_USE_SETTLE_MS;
  let seen = await lastUse(t, key);
  while (!settled(seen.value) && suiteNow() < deadline) {
    await sleep(1000);
    seen = await lastUse(t, key);
  }
  return seen;
}

async function lastUse(t: CheckContext, key: CreatedKey): Promise<{ value: unknown; res: HttpResponse }> {
  const pages = await t.keys.listUntil((read) => t.keys.findListed(read, key) !== null);
  const listed = t.keys.findListed(pages, key);
  if (!listed) t.skip(`the key list does not show the key ${key.name}: KEY-3 judges that`);
  return { value: listed!.item[t.profile.apiKeyFields.lastUsedAt!], res: listed!.res };
}

function movedOn(before: unknown, after: unknown): boolean {
  const [from, to] = [timeOf(before), timeOf(after)];
  return from !== null && to !== null && to > from;
}

check(
  'KEY-8',
  'creating a key without name is 400, not 422',
  async (t) => {
    const res = await t.http.post(KEY_CREATION_PATH, {});
    if (res.status >= 200 && res.status < 300) {
      await t.keys.discard(await t.keys.adopt(res, null));
      t.fail('creating a key without name succeeded, expected 400', res);
    }
    t.ensure(res.status !== 422, 'creating a key without name answered 422: a missing required parameter is 400 (Errors, rule 1)', res);
    t.ensure(res.status === 400, () => `creating a key without name answered ${res.status}, expected 400`, res);
  },
  { key: 'name-missing', values: ['absent'], ...WRITES },
);
