import type { ClauseId } from '../../src/kit.js';

/**
 * How requests reach the target, beside what they say: several on one connection kept alive, and
 * several of one key in flight at once. A server that keeps what a request established on its
 * connection (the key it authenticated), or whose per-key work is not safe to run twice at once
 * (the key's last use written in a transaction that conflicts), answers a request by what came
 * before it on the wire. Data, not code: the check of the clause an entry feeds (suites/explorer.suite.ts)
 * sends it in every run, on a key of the run's pool; docs/coverage.md lists them.
 */
export interface TransportEntry {
  /** How the report names it. */
  readonly name: string;
  readonly shape: OneConnection | AtOnce;
  /** The clauses its answers feed. */
  readonly clauses: readonly ClauseId[];
  /** Clauses it cannot reach, each with the reason. */
  readonly unreached: Readonly<Partial<Record<ClauseId, string>>>;
}

/** What a request carries: a key of the run, that key with one character changed, no header, a header without a token. */
export type Carrying = 'a live key' | 'an unknown key' | 'no key' | 'a malformed header';

/** Requests sent one after another on one connection of their own. */
export interface OneConnection {
  readonly kind: 'one connection';
  readonly steps: readonly Carrying[];
}

/** Requests of one live key sent together on the pool's connections. */
export interface AtOnce {
  readonly kind: 'at once';
  readonly requests: number;
}

/** What each request a step carries is judged by: the clause its answer feeds. */
export const JUDGED_BY: Readonly<Record<Exclude<Carrying, 'a live key'>, ClauseId>> = {
  'an unknown key': 'AUTH-3',
  'no key': 'AUTH-1',
  'a malformed header': 'AUTH-2',
};

/** A live key, then `carrying`, then the live key again, on one connection: the clause `carrying` feeds. */
const between = (carrying: Exclude<Carrying, 'a live key'>, unreached: TransportEntry['unreached'] = {}): TransportEntry => ({
  name: `one connection: a live key, ${carrying}, the live key`,
  shape: { kind: 'one connection', steps: ['a live key', carrying, 'a live key'] },
  clauses: [JUDGED_BY[carrying], 'GEN-1'],
  unreached,
});

export const TRANSPORTS: readonly TransportEntry[] = [
  between('an unknown key'),
  between('no key', {
    'RATE-7': 'a request with no key on a connection a key used is one request of the per-IP budget, as any: the burst counts its own',
  }),
  between('a malformed header'),
  {
    name: 'eight requests of one key in flight at once',
    shape: { kind: 'at once', requests: 8 },
    clauses: ['GEN-3', 'GEN-1', 'RATE-2'],
    unreached: {
      'RATE-8': 'its samples are sequential requests: requests in flight at once may be counted in any order, and their Remaining values with them',
    },
  },
];
