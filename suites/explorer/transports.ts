import { type CheckContext, type Credential, type HttpResponse, PROBE_PATH } from '../../src/kit.js';
import { type Carrying, type TransportEntry, TRANSPORTS } from '../catalogues/transports.js';
import { oneCharacterChanged } from '../catalogues/key-spellings.js';

// Sends entries of the transports catalogue (suites/catalogues/transports.ts) on a key of the run's
// pool, and keeps each answer with what its request carried: the check of the clause an entry feeds
// judges it (suites/explorer.suite.ts), and the run-wide judges every answer.

/** One request of an entry, and its answer. */
export interface TransportAnswer {
  readonly entry: TransportEntry;
  readonly carrying: Carrying;
  /** `[GET] /api/v1/workspaces with an unknown key, third on one connection: ...`, as a finding names it. */
  readonly label: string;
  readonly res: HttpResponse;
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth'];

/** The entries, in the catalogue's order; the requests of one entry on one connection one after another. */
export async function sendTransports(t: CheckContext, entries: readonly TransportEntry[]): Promise<TransportAnswer[]> {
  // A key of the pool where there is one: the configured key's budget is the teardown's.
  const pool = t.run.keyPool;
  const live: Credential = pool.length > 0 ? { key: pool[0]!, kind: 'created' } : 'main';
  const secret = typeof live === 'string' ? t.run.keys.main : live.key;
  const credentials: Readonly<Record<Carrying, Credential>> = {
    'a live key': live,
    'an unknown key': { key: oneCharacterChanged(secret, t.run.keyPrefix), kind: 'invalid' },
    'no key': 'none',
    'a malformed header': { header: 'Bearer' },
  };
  const answers: TransportAnswer[] = [];
  for (const entry of entries) {
    const { shape } = entry;
    if (shape.kind === 'one connection') {
      // Named per run and entry: no other request shares the connection.
      const connection = `${t.run.runId}:transports:${TRANSPORTS.indexOf(entry)}`;
      for (const [step, carrying] of shape.steps.entries()) {
        const res = await t.http.get(PROBE_PATH, { query: { limit: 1 }, auth: credentials[carrying], connection });
        answers.push({ entry, carrying, label: `[GET] ${PROBE_PATH} with ${carrying}, ${ORDINALS[step]} on one connection: ${entry.name}`, res });
      }
    } else {
      const all = await Promise.all(Array.from({ length: shape.requests }, () => t.http.get(PROBE_PATH, { query: { limit: 1 }, auth: live })));
      answers.push(...all.map((res) => ({ entry, carrying: 'a live key' as const, label: `[GET] ${PROBE_PATH}, one of ${entry.name}`, res })));
    }
  }
  return answers;
}
