import fc from 'fast-check';
import {
  type CheckContext,
  type ClauseId,
  type HttpResponse,
  type KeyBound,
  type KeyListPage,
  type UsableKey,
  collections,
  errorOf,
  PROBE_PATH,
} from '../../src/kit.js';

// The API key lifecycle as a state machine, for fast-check's model-based testing: the model is a
// plain record of facts (which keys the explorer made are live, which it deleted), each command
// acts on the target through the check and compares what the target answered with what the model
// allows. A disagreement names the clause it breaks. The commands vary what a probe written by
// hand fixes: who acts (the default actor, another live key, the key itself), and in what order
// keys are created, used, deleted and created again.

/** A key the explorer made, as the model knows it: `k1`, `k2`, … in the order of creation. */
export interface ModelKey {
  readonly label: string;
  readonly key: UsableKey;
}

export interface KeyModel {
  readonly live: ModelKey[];
  readonly deleted: ModelKey[];
  made: number;
  /** Keys the exploration may still create: it keeps to the bound the write plan announced (`EXPLORER_KEYS`). */
  keysLeft: number;
  /** The run knows where keys are deleted (the profile's key path, or the one its probe found): without it, no key is deleted. */
  readonly canDelete: boolean;
}

/** What the commands act through: the check, the actor when none is chosen, and every answer of the sequence. */
export interface KeyReal {
  readonly t: CheckContext;
  /** A key of the run's pool, so that the explorer spends the main key's budget on nothing; null: the main key. */
  readonly actor: { readonly key: string; readonly kind: 'created' } | null;
  /** Every answer of the sequence so far, in order: the evidence of a disagreement. */
  readonly trail: HttpResponse[];
  /** Keys the whole exploration created: each key's name is its own, so that the key list tells them apart. */
  readonly serial: { created: number };
  /**
   * What the target was seen to do against a SHOULD, over the whole exploration: recorded, not
   * thrown, and allowed from then on, so that a departure the document permits ends no sequence and
   * leaves the MUSTs explored (a deleted key kept in the list: KEY-6).
   */
  readonly departures: Disagreement[];
}

/** The target answered what the model does not allow: the clause, why, and the answers that show it. */
export class Disagreement extends Error {
  override readonly name = 'Disagreement';
  constructor(
    readonly clause: ClauseId,
    readonly reason: string,
    readonly evidence: readonly HttpResponse[],
  ) {
    super(`${clause}: ${reason}`);
  }
}

/** The most keys of the explorer live at once: enough for every actor, few enough to stay cheap. */
const MOST_LIVE = 3;

/** Who performs an operation on a key. */
export type Actor = 'the default actor' | 'another live key' | 'the key itself';

function credentialOf(real: KeyReal, model: KeyModel, target: ModelKey | null, actor: Actor): { as: KeyReal['actor']; who: string } {
  if (actor === 'the key itself' && target) return { as: real.t.keys.credential(target.key), who: `${target.label} itself` };
  if (actor === 'another live key') {
    const other = model.live.find((k) => k !== target);
    if (other) return { as: real.t.keys.credential(other.key), who: other.label };
  }
  return { as: real.actor, who: real.actor ? 'a key of the run' : 'the main key' };
}

const pick = <T>(list: readonly T[], index: number): T => list[index % list.length]!;

/** Creates a key with a name, asked by `actor`; the model expects a complete key that authenticates (KEY-1). */
export class CreateKey implements fc.AsyncCommand<KeyModel, KeyReal> {
  constructor(readonly actor: Exclude<Actor, 'the key itself'>) {}
  check(model: Readonly<KeyModel>): boolean {
    return model.live.length < MOST_LIVE && model.keysLeft > 0;
  }
  async run(model: KeyModel, real: KeyReal): Promise<void> {
    model.keysLeft--;
    const { as, who } = credentialOf(real, model, null, this.actor);
    const { name, res } = await real.t.keys.post(`explore-${++real.serial.created}`, as ? { as } : {});
    real.trail.push(res);
    const adopted = await real.t.keys.adopt(res, name);
    const uses = adopted ? [adopted.firstUse.first, adopted.firstUse.last].filter((r): r is HttpResponse => r !== null && r !== undefined) : [];
    real.trail.push(...new Set(uses));
    const label = `k${++model.made}`;
    if (res.status < 200 || res.status >= 300) throw new Disagreement('KEY-1', `creating ${label}, asked by ${who}, answered ${res.status}`, [res]);
    if (!adopted?.secret || !adopted.firstUse.accepted) {
      const last = adopted?.firstUse.last;
      throw new Disagreement('KEY-1', `${label}, created by ${who}, never authenticated within 10 s${last ? `: its use answered ${last.status}` : ''}`, [
        res,
        ...(last ? [last] : []),
      ]);
    }
    model.live.push({ label, key: adopted as UsableKey });
  }
  toString(): string {
    return `create a key (by ${this.actor})`;
  }
}

/** What a live key asks: a read (200), a page the API refuses (422), a key of its own account (200). */
export type Use = 'a read' | 'a refused page' | 'the key list';

const USES: Readonly<Record<Use, { readonly path: (t: CheckContext) => string | null; readonly query: Readonly<Record<string, number>> }>> = {
  'a read': { path: () => PROBE_PATH, query: { limit: 1 } },
  'a refused page': { path: () => PROBE_PATH, query: { limit: 1, page: 0 } },
  'the key list': { path: (t) => t.profile.paths.apiKeyList, query: { limit: 1 } },
};

/** Uses a live key; the model expects it to authenticate, whatever came before (KEY-1: it is the key that was revealed). */
export class UseKey implements fc.AsyncCommand<KeyModel, KeyReal> {
  constructor(
    readonly index: number,
    readonly use: Use,
  ) {}
  check(model: Readonly<KeyModel>): boolean {
    return model.live.length > 0;
  }
  async run(model: KeyModel, real: KeyReal): Promise<void> {
    const { path, query } = USES[this.use];
    await readWithLive(real, pick(model.live, this.index), path(real.t) ?? PROBE_PATH, query, this.use);
  }
  toString(): string {
    return `use a live key (#${this.index}) for ${this.use}`;
  }
}

/** A read with a live key, kept in the trail: a 401 is a disagreement (KEY-1), whatever `what` the read was. */
async function readWithLive(real: KeyReal, target: ModelKey, path: string, query: Readonly<Record<string, number>>, what: string): Promise<void> {
  const res = await real.t.http.get(path, { query, auth: real.t.keys.credential(target.key) });
  real.trail.push(res);
  if (res.status === 401) throw new Disagreement('KEY-1', `${target.label}, live (never deleted), answered 401 to ${what}`, [res]);
}

/**
 * Reads every list the profile offers with one live key, one request after another: samples for
 * RATE-8 on every route (a budget that does not count one of them). The lists' own walks share
 * their key with the checks beside them, so how many of their requests are sequential, and judged,
 * depends on the machine's pace; a key of the explorer's is nobody else's.
 */
export class ReadEveryList implements fc.AsyncCommand<KeyModel, KeyReal> {
  constructor(readonly index: number) {}
  check(model: Readonly<KeyModel>): boolean {
    return model.live.length > 0;
  }
  async run(model: KeyModel, real: KeyReal): Promise<void> {
    const target = pick(model.live, this.index);
    const lists = Object.values(collections(real.t.profile)).flatMap((endpoint) => (endpoint.list === null ? [] : [endpoint.list]));
    for (const path of lists) await readWithLive(real, target, path, { limit: 1 }, `a read of ${path}`);
  }
  toString(): string {
    return `read every list with a live key (#${this.index}), one after another`;
  }
}

/** Deletes a live key as `actor`; the model expects the very next request with it to be 401 (KEY-5). */
export class DeleteKey implements fc.AsyncCommand<KeyModel, KeyReal> {
  constructor(
    readonly index: number,
    readonly actor: Actor,
  ) {}
  check(model: Readonly<KeyModel>): boolean {
    return model.canDelete && model.live.length > 0;
  }
  async run(model: KeyModel, real: KeyReal): Promise<void> {
    const target = pick(model.live, this.index);
    const { as, who } = credentialOf(real, model, target, this.actor);
    const res = await real.t.keys.delete(target.key, as ?? undefined);
    real.trail.push(res);
    // A key that may not delete keys (403) is a permission the document leaves to the account: not judged.
    if (res.status === 403) return;
    if (res.status < 200 || res.status >= 300)
      throw new Disagreement('KEY-5', `deleting ${target.label} (live), asked by ${who}, answered ${res.status}: the key was not deleted`, [res]);
    model.live.splice(model.live.indexOf(target), 1);
    model.deleted.push(target);
    const next = await real.t.http.get(PROBE_PATH, { query: { limit: 1 }, auth: { key: target.key.secret, kind: 'invalid' } });
    real.trail.push(next);
    revoked(target, next, `right after its deletion by ${who}`);
  }
  toString(): string {
    return `delete a live key (#${this.index}) by ${this.actor}`;
  }
}

/** Uses a deleted key again; the model expects 401 `authentication_error`, for good (KEY-5). */
export class UseDeleted implements fc.AsyncCommand<KeyModel, KeyReal> {
  constructor(readonly index: number) {}
  check(model: Readonly<KeyModel>): boolean {
    return model.deleted.length > 0;
  }
  async run(model: KeyModel, real: KeyReal): Promise<void> {
    const target = pick(model.deleted, this.index);
    const res = await real.t.http.get(PROBE_PATH, { query: { limit: 1 }, auth: { key: target.key.secret, kind: 'invalid' } });
    real.trail.push(res);
    revoked(target, res, 'later');
  }
  toString(): string {
    return `use a deleted key (#${this.index})`;
  }
}

function revoked(target: ModelKey, res: HttpResponse, when: string): void {
  const type = errorOf(res.json)?.type;
  if (res.status !== 401 || type !== 'authentication_error')
    throw new Disagreement(
      'KEY-5',
      `${target.label}, deleted, answered ${res.status}${res.status === 401 ? ` with type ${JSON.stringify(type ?? null)}` : ''} ${when}, expected 401 authentication_error`,
      [res],
    );
}

/**
 * Reads the key list, with the run's key or, given `by`, a live key of the model's (any key of the
 * account lists the account's keys); the model expects every live key listed (KEY-3) and no deleted
 * one (KEY-6, a SHOULD: a deleted key listed is a departure, `KeyReal.departures`).
 */
export class ListKeys implements fc.AsyncCommand<KeyModel, KeyReal> {
  constructor(readonly by?: number) {}
  check(model: Readonly<KeyModel>): boolean {
    return model.live.length + model.deleted.length > 0 && (this.by === undefined || model.live.length > 0);
  }
  async run(model: KeyModel, real: KeyReal): Promise<void> {
    const { t } = real;
    if (!t.profile.paths.apiKeyList || !(t.profile.apiKeyFields.name || t.profile.apiKeyFields.id)) return;
    // Once a deleted key was seen kept in the list, the model allows it: a SHOULD, warned once.
    const deletedMayStay = real.departures.some((d) => d.clause === 'KEY-6');
    // A list may show a creation or a deletion a moment late (`listUntil`): read again while it disagrees.
    const agrees = (read: readonly KeyListPage[]) =>
      model.live.every((k) => t.keys.findListed(read, k.key) !== null) &&
      (deletedMayStay || model.deleted.every((k) => t.keys.findListed(read, k.key) === null));
    const pages = await t.keys.listUntil(agrees, this.by === undefined ? undefined : t.keys.credential(pick(model.live, this.by).key));
    real.trail.push(...pages.map((p) => p.res));
    const missing = model.live.find((k) => t.keys.findListed(pages, k.key) === null);
    if (missing)
      throw new Disagreement(
        'KEY-3',
        `${missing.label} (live) is not in the key list`,
        pages.map((p) => p.res),
      );
    if (deletedMayStay) return;
    const still = model.deleted.map((k) => ({ k, listed: t.keys.findListed(pages, k.key) })).find((x) => x.listed !== null);
    if (still) real.departures.push(new Disagreement('KEY-6', `${still.k.label} (deleted) is still in the key list`, [...real.trail]));
  }
  toString(): string {
    return this.by === undefined ? 'list the keys' : `list the keys with a live key (#${this.by})`;
  }
}

const ACTORS: readonly Actor[] = ['the default actor', 'another live key', 'the key itself'];
const USE_KINDS: readonly Use[] = ['a read', 'a refused page', 'the key list'];

/** The commands fast-check draws sequences from. */
export const KEY_COMMANDS = [
  fc.constantFrom('the default actor' as const, 'another live key' as const).map((actor) => new CreateKey(actor)),
  fc.tuple(fc.nat(MOST_LIVE - 1), fc.constantFrom(...USE_KINDS)).map(([index, use]) => new UseKey(index, use)),
  fc.tuple(fc.nat(MOST_LIVE - 1), fc.constantFrom(...ACTORS)).map(([index, actor]) => new DeleteKey(index, actor)),
  fc.nat(MOST_LIVE - 1).map((index) => new UseDeleted(index)),
  fc.constant(new ListKeys()),
];

/**
 * Sequences every run explores before any drawn by chance, so that whether a class is visited
 * never depends on the seed: each actor deletes, a key is created right after the newest key was
 * deleted (by the default actor, and by itself), the key list is read right before and right
 * after a creation, and one key's requests get every kind of answer
 * in turn and read every list three times over (each a sample for RATE-8 whatever the status and
 * whatever the route).
 */
export const KEY_COVER: readonly (() => fc.AsyncCommand<KeyModel, KeyReal>[])[] = [
  () => [new CreateKey('the default actor'), new DeleteKey(0, 'the default actor'), new CreateKey('the default actor'), new UseKey(0, 'a read')],
  () => [new CreateKey('the default actor'), new DeleteKey(0, 'the key itself'), new CreateKey('the default actor'), new UseKey(0, 'a read')],
  // The key list read right before and right after a creation, as a reader of its own writes would:
  // a list kept in a cache across the write (one only a deletion clears) shows the new key late, or never.
  () => [
    new CreateKey('the default actor'),
    new CreateKey('another live key'),
    new DeleteKey(0, 'another live key'),
    new UseDeleted(0),
    new ListKeys(),
    new CreateKey('another live key'),
    new ListKeys(0),
    new UseKey(1, 'a read'),
  ],
  () => [
    new CreateKey('the default actor'),
    ...[0, 1, 2].flatMap(() => USE_KINDS.map((use) => new UseKey(0, use))),
    ...[0, 1, 2].map(() => new ReadEveryList(0)),
    new UseKey(0, 'a read'),
    new DeleteKey(0, 'the key itself'),
    new UseDeleted(0),
  ],
];

/**
 * The most keys the exploration creates: the cover's, and `MOST_LIVE` for each sequence drawn
 * (`--explore`), its opening key included; past the bound no step creates (`keysLeft`).
 */
export const EXPLORER_KEYS: KeyBound = {
  fixed: KEY_COVER.reduce((sum, cover) => sum + cover().filter((c) => c instanceof CreateKey).length, 0),
  perSequence: MOST_LIVE,
};

/** What the lifecycle's commands vary, as docs/coverage.md lists it: each class, the clauses it feeds, and what it cannot reach. */
export const KEY_COMMANDS_CATALOGUE: readonly {
  readonly name: string;
  readonly clauses: readonly ClauseId[];
  readonly unreached: Readonly<Partial<Record<ClauseId, string>>>;
}[] = [
  {
    name: 'create a key, asked by the default actor or another live key of the account',
    clauses: ['KEY-1', 'KEY-4'],
    unreached: { 'KEY-2': "the key's first use is KEY-2's own check: the explorer's allows the 10 s KEY-1 gives" },
  },
  { name: 'create a key right after the newest key was deleted (the cover, every run)', clauses: ['KEY-1'], unreached: {} },
  { name: 'read every list in turn with a live key (the cover, every run)', clauses: ['KEY-1', 'RATE-8'], unreached: {} },
  {
    name: 'use a live key: a read, a page the API refuses (422), the key list',
    clauses: ['KEY-1', 'RATE-8', 'ERR-4'],
    unreached: { 'KEY-7': 'a last-use time has a resolution of a second: KEY-7 waits it out in its own check' },
  },
  { name: 'delete a live key, by the default actor, another live key or the key itself', clauses: ['KEY-5'], unreached: {} },
  { name: 'use a deleted key, at once and later', clauses: ['KEY-5', 'AUTH-3', 'AUTH-8'], unreached: {} },
  { name: 'list the keys after any sequence', clauses: ['KEY-3', 'KEY-6', 'KEY-4'], unreached: {} },
  {
    name: 'list the keys, create one, list them again at once, by another key of the account (the cover, every run)',
    clauses: ['KEY-3', 'KEY-6'],
    unreached: {},
  },
];
