import type { FastifyRequest } from 'fastify';
import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';
import { errorBody } from '../../../reference/errors.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/*
 * How this happens: the request schema for submission rows was generated from the ORM model, where
 * `data` is a required `Json` column backed by Postgres `jsonb`. `jsonb` happily stores any JSON
 * value, so a row whose `data` is a string, a number, a boolean or an array passes validation and
 * is inserted (201). A JSON `null` also passes the generated schema, but the ORM refuses a plain
 * null for a required Json column at insert time (it wants its JsonNull/DbNull sentinels); the
 * transaction rolls back and the unmapped client error surfaces as a 500. Object payloads, and
 * every other validation (ids, rows not an array, a row that is not an object, a row without data),
 * are unchanged.
 */
export default defineMutant({
  description:
    'Submission rows accept any JSON value as data (string, number, boolean, array: 201) because validation follows the jsonb column, and a row with data null fails at insert with a 500 instead of a 422.',
  breaks: { 'SUB-2': 'fail', 'GEN-3': 'warn' },
  collateral: ['SUB-3', 'ERR-4'],
  modify: (reference) => {
    const nullData = new WeakSet<FastifyRequest>();
    reference.app.addHook('preHandler', async (req) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      const body = req.body;
      if (!isObject(body) || !Array.isArray(body.rows)) return;
      for (const row of body.rows as unknown[]) {
        if (!isObject(row) || !('data' in row) || isObject(row.data)) continue;
        if (row.data === null) nullData.add(req);
        // Stored as a jsonb scalar or array: the reference sees an acceptable row.
        row.data = {};
      }
    });
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (!nullData.has(req) || reply.statusCode !== 201 || typeof payload !== 'string') return payload;
      let created: { id?: unknown };
      try {
        created = JSON.parse(payload) as { id?: unknown };
      } catch {
        return payload;
      }
      // The insert failed: the transaction is rolled back, nothing was created.
      const index = req.account.submissions.findIndex((s) => s.id === created.id);
      if (index >= 0) req.account.submissions.splice(index, 1);
      reply.code(500);
      return JSON.stringify(errorBody('api_error', 'Unexpected server error.'));
    });
  },
});
