import { ledgerEntry } from '../broker/ledger.js';
import type { Credential, HttpResponse } from '../http/client.js';
import { KEY_PROPAGATION_MS, type FirstUse } from '../keys/identify.js';
import { KEY_CREATION_PATH } from '../keys/paths.js';
import { sleep } from '../sleep.js';
import { suiteNow } from '../clock.js';
import { adoptKey, postKey, type RunKeyPort } from '../keys/run-key.js';
import { runKeyName } from '../keys/run-key-name.js';
import { fillPath } from '../profile/profile.js';
import type { CheckJudging } from './judging.js';
import type { WorkerState } from './worker.js';

/** A key the run created. Its secret is registered with the broker the moment it authenticates. */
export interface CreatedKey {
  readonly name: string;
  /** The key's id, from the member the run deletes keys by; null when there is none. */
  readonly id: string | null;
  /** The complete key: the declared member's value, or the candidate that authenticated; null when none did. */
  readonly secret: string | null;
  readonly response: HttpResponse;
  /** How the key answered its first uses (KEY-1, KEY-2). */
  readonly firstUse: FirstUse;
}

/** A created key whose secret is known. */
export type UsableKey = CreatedKey & { readonly secret: string };

/** One page of the key list as the check saw it. */
export interface KeyListPage {
  readonly res: HttpResponse;
  readonly items: readonly Record<string, unknown>[];
}

export interface PostOptions {
  /**
   * The name's length in characters: the run's name for the purpose, padded with `x` (a name past
   * a storage bound). @default the run's name as it is
   */
  readonly nameLength?: number;
  /** Who asks: another key of the account (keys act as their account). @default the main key */
  readonly as?: { readonly key: string; readonly kind: 'created' };
}

export interface AdoptOptions {
  /** The key's first use, by which its secret is found (see `adoptKey`). @default GET on the probe path */
  readonly use?: (auth: { readonly key: string; readonly kind: 'created' | 'candidate' }) => Promise<HttpResponse>;
}

export interface ForCheckOptions {
  /** Skip unless the key authenticated within the allowance (KEY-1 judges that). @default true */
  readonly mustAuthenticate?: boolean;
}

/**
 * `t.keys`: the lifecycle of the keys a check creates, the ledger and the secrets inside, so that
 * no check handles a bucket, a ledger line or a secret registration itself.
 */
export class CheckKeys {
  constructor(
    readonly t: CheckJudging,
    readonly state: WorkerState,
  ) {}

  /** A recognisable name, so that a deployment owner (and `cleanup`) can tell run keys apart. */
  name(purpose: string): string {
    return runKeyName(this.t.run.runId, purpose);
  }

  /** The Authorization credential of a created key. */
  credential(key: UsableKey): { readonly key: string; readonly kind: 'created' } {
    return { key: key.secret, kind: 'created' };
  }

  /**
   * Creates a key (POST /api/v1/api_keys, where the document puts creation), finds its secret by
   * using it, registers it for redaction and the KEY-4 leak scan, and records the key in the
   * ledger, before anything else is judged. A non-2xx answer or a response with no value that
   * authenticates (or, declared, no value at all) is a finding (KEY-1). Where the run cannot
   * delete keys, it creates none (`KeyDeletion.noKeys`): the check is not applicable.
   */
  async create(purpose: string): Promise<UsableKey> {
    const { t } = this;
    const { name, res } = await this.post(purpose);
    const adopted = await this.adopt(res, name);
    t.ensure(res.status >= 200 && res.status < 300, () => `[POST] ${KEY_CREATION_PATH} with a name answered ${res.status}, expected 2xx`, res);
    const member = t.profile.apiKeyFields.secret;
    const last = adopted?.firstUse.last;
    t.ensure(
      adopted?.secret,
      () =>
        member
          ? `the creation response contains no key in its "${member}" member`
          : `the creation response contains no value that authenticated within 10 s (${last ? `the last try answered ${last.status}` : 'it holds no candidate'})`,
      res,
      ...(last ? [last] : []),
    );
    return adopted as UsableKey;
  }

  /**
   * Asks for a key and leaves it unused (KEY-3 lists a key before its first use). Announced in the
   * ledger first, a refusal recorded. The caller must `adopt` the response whatever happens in
   * between: until then the new secret is neither redacted nor deleted at the end.
   */
  async post(purpose: string, options: PostOptions = {}): Promise<{ name: string; res: HttpResponse }> {
    const { noKeys } = this.t.run.keyDeletion;
    if (noKeys) this.t.notApplicable(noKeys);
    const name = this.name(purpose).padEnd(options.nameLength ?? 0, 'x');
    return { name, res: await postKey(this.#port(), name, options.as) };
  }

  /**
   * A key for a check whose subject is not creation itself: a failed creation skips (KEY-1 judges
   * it), and so, unless told otherwise, does a key that never authenticated.
   */
  async forCheck(purpose: string, options: ForCheckOptions = {}): Promise<UsableKey> {
    const { t } = this;
    const created = await t.attempt(() => this.create(purpose));
    if (created.outcome === 'finding') t.skip(`no usable key could be created (${created.reason}): KEY-1 judges creation`);
    if (created.outcome !== 'done') return created.rethrow();
    const key = created.value;
    if ((options.mustAuthenticate ?? true) && !key.firstUse.accepted) {
      await this.discard(key);
      t.skip(`the new key never authenticated (last answer ${key.firstUse.last?.status ?? 'none'}): KEY-1 judges that`);
    }
    return key;
  }

  /** A key for the check (see `forCheck`), handed to `use` and discarded afterwards, whatever `use` found. */
  async using<T>(purpose: string, use: (key: UsableKey) => Promise<T>, options: ForCheckOptions = {}): Promise<T> {
    const key = await this.forCheck(purpose, options);
    try {
      return await use(key);
    } finally {
      await this.discard(key);
    }
  }

  /**
   * Takes charge of whatever a creation request created, also one that should have been refused
   * (no name, no key): see `adoptKey`. Returns null when the response created nothing.
   */
  async adopt(res: HttpResponse, name: string | null, options: AdoptOptions = {}): Promise<CreatedKey | null> {
    const { t, state } = this;
    // Once a new key has failed to authenticate in 10 s, later keys of the run are tried once.
    const adopted = await adoptKey(this.#port(), res, {
      name,
      idMember: t.run.keyDeletion.idMember ?? t.profile.apiKeyFields.id,
      withinMs: state.freshKeysFail ? 0 : KEY_PROPAGATION_MS,
      ...(options.use ? { use: options.use } : {}),
    });
    if (!adopted) return null;
    state.freshKeysFail = adopted.use.accepted === null;
    return { name: adopted.name, id: adopted.id, secret: adopted.secret, response: res, firstUse: adopted.use };
  }

  /**
   * Deletes a created key at the run's key path, with the main key or the credential `as` (another
   * key of the run, whose use is then a write); records the deletion (2xx, or 404: already gone).
   */
  async delete(key: CreatedKey, as?: { readonly key: string; readonly kind: 'created' | 'candidate' }): Promise<HttpResponse> {
    const { t } = this;
    const template = t.run.keyDeletion.path;
    if (!template || !key.id) t.notApplicable('not declared: the key path (paths.apiKey) and key id member (apiKeyFields.id): created keys cannot be deleted');
    const res = await t.http.delete(fillPath(template!, key.id!), as ? { auth: as } : {});
    if ((res.status >= 200 && res.status < 300) || res.status === 404) await this.#recordDeletion(key, res.status === 404 ? 'already gone: 404' : undefined);
    return res;
  }

  /** Deletes a key at the end of a check, whatever the check found; the run's cleanup retries it. */
  async discard(key: CreatedKey | null): Promise<void> {
    if (!key || !this.t.run.keyDeletion.path || !key.id) return;
    try {
      await this.delete(key);
    } catch {
      // The ledger still lists it: the end-of-run cleanup deletes it.
    }
  }

  /** Reads the key list page by page (the profile's list path) until has_more is false, with the run's key or `auth`. */
  async list(maxPages = 20, auth?: Credential): Promise<KeyListPage[]> {
    const { t } = this;
    const path = t.profile.paths.apiKeyList;
    if (!path) t.notApplicable('the profile declares no key list path');
    const pages: KeyListPage[] = [];
    for (let page = 1; page <= maxPages; page++) {
      const res = await t.http.get(path!, { query: { page, limit: 100 }, ...(auth !== undefined ? { auth } : {}) });
      t.ensure(res.status === 200, () => `the key list answered ${res.status}, expected 200`, res);
      const body = t.json(res) as { items?: unknown; has_more?: unknown };
      t.ensure(Array.isArray(body?.items), 'the key list response has no items array', res);
      pages.push({ res, items: body.items as Record<string, unknown>[] });
      if (body.has_more !== true) break;
    }
    return pages;
  }

  /**
   * The key list, read again once a second until `settled` holds of it, for up to
   * KEY_PROPAGATION_MS: a list served from an index or a replica (a DynamoDB secondary index, a
   * read replica) may show a key's creation or deletion a moment late, as KEY-1 gives a new key 10 s
   * to take effect. The last reading is returned, settled or not, for the check to judge.
   */
  async listUntil(settled: (pages: readonly KeyListPage[]) => boolean, auth?: Credential): Promise<KeyListPage[]> {
    const deadline = suiteNow() + KEY_PROPAGATION_MS;
    let pages = await this.list(undefined, auth);
    while (!settled(pages) && suiteNow() < deadline) {
      await sleep(1000);
      pages = await this.list(undefined, auth);
    }
    return pages;
  }

  /** The list item of a key, found by its name (and id where the profile names the id member). */
  findListed(pages: readonly KeyListPage[], key: CreatedKey): { item: Record<string, unknown>; res: HttpResponse } | null {
    const { name: nameField, id: idField } = this.t.profile.apiKeyFields;
    for (const { res, items } of pages) {
      for (const item of items) {
        const byId = idField && key.id !== null && item?.[idField] === key.id;
        const byName = nameField && item?.[nameField] === key.name;
        if (byId || byName) return { item, res };
      }
    }
    return null;
  }

  async #recordDeletion(key: CreatedKey, note?: string): Promise<void> {
    // A deliberate second deletion (KEY-6) is not recorded again.
    if (this.state.recordedDeletions.has(key.id!)) return;
    this.state.recordedDeletions.add(key.id!);
    await this.state.broker.addLedgerEntry(ledgerEntry(this.t.run, { event: 'deleted', id: key.id!, name: key.name, note }));
  }

  /** The check's client, the worker's records, the run's names: what `postKey` and `adoptKey` need. */
  #port(): RunKeyPort {
    const { run } = this.t;
    return { http: this.t.http, broker: this.state.broker, profile: run.profile, keyPrefix: run.keyPrefix, runId: run.runId, baseUrl: run.baseUrl };
  }
}
