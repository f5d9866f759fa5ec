import type { FastifyRequest } from 'fastify';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the Rails, Django and Laravel services that wrap every write in
 * a short transaction that first locks the account's row: `account.with_lock { ... }` (Rails:
 * `SELECT ... FROM accounts WHERE id = $1 FOR UPDATE`), Django's
 * `Account.objects.select_for_update().get(pk=...)` inside `transaction.atomic()`, Laravel's
 * `lockForUpdate()`. It is how they keep per-account invariants (plan quotas, "at most N keys",
 * counters, ordered ids) true under concurrent requests without a unique index for each: two
 * writes of one account never interleave; the second waits on the row lock until the first
 * commits, so writes of one account are answered one after another, each after its transaction's
 * round trips (some milliseconds). Reads take no lock (MVCC) and are never held up. A write that
 * waits longer than the database's `lock_timeout` (PostgreSQL SQLSTATE 55P03, `lock_not_available`)
 * is refused rather than queued forever; Stripe's API names the same condition with the error code
 * `lock_timeout` ("another API request ... is currently accessing it ... retry the request").
 *
 * Here: every write under /api/ (POST, PUT, PATCH, DELETE: key creation, key deletion, submission
 * creation), once authenticated and counted against its key's window, waits for its account's
 * lock, spends 15 ms in its transaction (the locked row read and the commit), runs as in the
 * reference, and releases the lock as its answer goes out. Concurrent writes of one account are
 * thus answered one at a time, in arrival order, at least 15 ms apart; writes of different
 * accounts and all reads run in parallel as before. A write that waited 10 s for the lock would be
 * answered 409 `conflict_error`, code `lock_timeout`, param null (at 15 ms a write, that takes
 * some 650 writes of one account in flight at once; the per-key ceiling of 100 a minute keeps a
 * run far below it). A lock is never held past 3 s, whatever happens to its request.
 *
 * Why it is conformant:
 * - Operations: every write answers as in the reference (201 for a submission, SUB-1; the key's
 *   2xx with the full key, KEY-1; deletion's answer) with the same body; only its timing changes.
 *   The document states no latency and no concurrency behaviour.
 * - KEY-2, KEY-5 ("the token stops working immediately"): the key is created, or revoked, inside
 *   the locked transaction, before its answer is sent, and authentication reads keys without
 *   waiting for any lock: the first request after a creation's answer authenticates, the first
 *   after a deletion's answer is 401 `authentication_error`.
 * - Limits, RATE-2, RATE-3, RATE-4, RATE-6, RATE-8: each request is counted against its key (or
 *   its IP) when it arrives, before it waits for the lock, exactly as in the reference; a 429 never
 *   waits. The headers are the reference's.
 * - Errors, rule 3: `conflict_error` "applies to requests that change data", and only writes ever
 *   wait for the lock; its status is not shown (open point `error-statuses`), 409 is RFC 9110
 *   15.5.10's "conflict with the current state of the target resource". ERR-1, ERR-2: it is the
 *   common envelope with a document type; 409 is not in the status table. ERR-6: read-only
 *   endpoints never take the lock and never answer it. Stripe answers its `lock_timeout` with a
 *   429; here 429 is kept for the Limits (a 429 must be `rate_limit_error` with Retry-After and
 *   the three headers, RATE-3, RATE-4), so the lock's refusal is the document's conflict type.
 * - GEN-3: waiting is bounded (10 s, then 409) and a held lock is freed when its answer is sent,
 *   when its request ends, and in any case after 3 s (a client that goes away mid-transaction
 *   does not free the lock early: its transaction still commits, as a database's would), so no client behaviour can hang the
 *   account's writes or produce a 5xx.
 */

/** The transaction's time under the lock: the locked row read and the commit. */
const TRANSACTION_MS = 15;
/** How long a write waits for its account's lock before it is refused (PostgreSQL `lock_timeout`). */
const LOCK_TIMEOUT_MS = 10_000;
/** The longest any write holds the lock, whatever becomes of its request. */
const MAX_HOLD_MS = 3_000;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The common envelope with the document's `conflict_error` type (reference/errors.ts types only the table's seven). */
function conflict(message: string, code: string): { error: { type: 'conflict_error'; code: string; message: string; param: null; path: null } } {
  return { error: { type: 'conflict_error', code, message, param: null, path: null } };
}

/** One account's row lock: held by one write, the others queued in arrival order. */
class RowLock {
  #held = false;
  readonly #queue: Array<() => void> = [];

  /** Resolves with a release function once the lock is held, or with null after `timeoutMs`. */
  acquire(timeoutMs: number): Promise<(() => void) | null> {
    return new Promise((resolve) => {
      const grant = () => {
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          clearTimeout(cap);
          this.#next();
        };
        const cap = setTimeout(release, MAX_HOLD_MS);
        cap.unref();
        resolve(release);
      };
      if (!this.#held) {
        this.#held = true;
        grant();
        return;
      }
      const waiter = () => {
        clearTimeout(timer);
        grant();
      };
      const timer = setTimeout(() => {
        const at = this.#queue.indexOf(waiter);
        if (at >= 0) this.#queue.splice(at, 1);
        resolve(null);
      }, timeoutMs);
      timer.unref();
      this.#queue.push(waiter);
    });
  }

  #next(): void {
    const waiter = this.#queue.shift();
    if (waiter) waiter();
    else this.#held = false;
  }

  get idle(): boolean {
    return !this.#held && this.#queue.length === 0;
  }
}

export default defineVariant({
  description:
    "Every write takes its account's row lock for a short transaction (15 ms): concurrent writes of one account are answered one at a time in arrival order, reads never wait, and a write that waited 10 s for the lock would be 409 conflict_error lock_timeout",
  openPoint: 'error-statuses',
  atRisk: ['SUB-1', 'KEY-1', 'KEY-2', 'KEY-5', 'KEY-6', 'RATE-3', 'RATE-8', 'ERR-2', 'ERR-6', 'GEN-3'],
  modify: ({ app }) => {
    const locks = new Map<string, RowLock>();
    const releases = new WeakMap<FastifyRequest, () => void>();
    const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

    app.addHook('preHandler', async (req, reply) => {
      // Only authenticated writes: the reference's onRequest hook has answered every other request under /api/.
      if (!WRITES.has(req.method) || !req.url.startsWith('/api/') || req.account === undefined) return;
      const accountId = req.account.id;
      let lock = locks.get(accountId);
      if (!lock) locks.set(accountId, (lock = new RowLock()));
      const release = await lock.acquire(LOCK_TIMEOUT_MS);
      if (release === null) {
        return reply.code(409).send(conflict('The account is being changed by another request; retry the request.', 'lock_timeout'));
      }
      releases.set(req, () => {
        release();
        const current = locks.get(accountId);
        if (current?.idle) locks.delete(accountId);
      });
      await sleep(TRANSACTION_MS);
      return;
    });

    const unlock = async (req: FastifyRequest) => {
      const release = releases.get(req);
      if (!release) return;
      releases.delete(req);
      release();
    };
    // Committed: the answer goes out and the next write of the account may start.
    app.addHook('onSend', async (req, _reply, payload) => {
      await unlock(req);
      return payload;
    });
    // A request that ends some other way frees the lock when it ends (and at the latest after MAX_HOLD_MS).
    app.addHook('onResponse', unlock);
  },
});
