import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';

/** How long the ingest worker holds an account's records lock for one submission: a base plus a share per row. */
const INGEST_BASE_MS = 250;
const INGEST_PER_ROW_MS = 2;

/*
 * How this happens: a submission's rows are turned into records by an ingest worker, which holds
 * the account's records lock (a Postgres advisory lock) while it writes. Customers reported pages
 * of the records list tearing during an ingest (a record on two pages), so the records list and
 * retrieval were made to take the same lock in shared mode. To avoid piling up request threads
 * they use the non-blocking try-lock, and the helper they reused is the write path's, which maps
 * a busy lock to 409 `conflict_error` ("Records are being updated; retry shortly"). Nobody read
 * records during an ingest in the tests, so it shipped: for a few hundred milliseconds after each
 * submission is accepted, every read of the account's records is a 409 `conflict_error`, a type
 * the document reserves for requests that change data.
 */
export default defineMutant({
  description:
    'Reading records while a submission is being ingested (a few hundred ms after each accepted submission) now answers 409 conflict_error instead of waiting for the ingest to finish.',
  breaks: { 'ERR-6': 'fail' },
  collateral: ['RES-3', 'RES-4', 'RES-7', 'ERR-5', 'PAG-1', 'PAG-2', 'PAG-3', 'PAG-4', 'PAG-5', 'PAG-6', 'PAG-7', 'PAG-8', 'PAG-9', 'PAG-10'],
  provokedBy: ['SUB', 'PAG', 'RES'],
  modify: (reference) => {
    const { app, state } = reference;
    const recordPrefix = itemPrefix(state.profile.paths.record);
    /** Account id -> server time until which an ingest job holds its records lock. */
    const lockedUntil = new Map<string, number>();
    const isRecordRead = (path: string) =>
      path === '/api/v1/records' || (recordPrefix !== null && path.startsWith(recordPrefix) && path.length > recordPrefix.length);
    app.addHook('onSend', async (req, reply, payload) => {
      const account = req.account;
      if (!account) return payload;
      const path = pathOf(req);
      const now = state.now();
      if (req.method === 'POST' && path === '/api/v1/submissions' && reply.statusCode === 201) {
        // The accepted submission is queued; a worker ingests its rows at once, holding the lock.
        const rows = (req.body as { rows?: unknown } | null | undefined)?.rows;
        const until = now + INGEST_BASE_MS + INGEST_PER_ROW_MS * (Array.isArray(rows) ? rows.length : 0);
        lockedUntil.set(account.id, Math.max(lockedUntil.get(account.id) ?? 0, until));
        return payload;
      }
      if (req.method !== 'GET' || !isRecordRead(path) || now >= (lockedUntil.get(account.id) ?? 0)) return payload;
      // The read's try-lock failed: the write path's answer to a busy lock.
      reply.code(409);
      reply.header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify({
        error: { type: 'conflict_error', code: 'resource_busy', message: 'Records are being updated; retry shortly.', param: null, path: null },
      });
    });
  },
});
