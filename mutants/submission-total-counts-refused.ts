import type { FastifyRequest } from 'fastify';
import { defineMutant } from './mutant.js';
import { isEnvelope, pathOf, rewriteJson } from './support.js';

/**
 * A count kept beside the data: each account's submission counter is raised when a submission's
 * request is read, before its rows are validated, and a 422 never lowers it again. The unfiltered
 * list reads total_count from the counter; a filtered list counts its matches.
 */
export default defineMutant({
  description: "counts submissions refused with 422 in the unfiltered submission list's total_count, while its items leave them out",
  breaks: { 'SUB-4': 'fail' },
  // The walks after the writes see the same count: one more than the items per refusal.
  collateral: ['PAG-6', 'PAG-7'],
  modify: (reference) => {
    const { paths, submissions } = reference.state.profile;
    const list = paths.submissionList;
    const filters = Object.values(submissions.listFilters ?? {}).filter((f): f is string => typeof f === 'string');
    const refused = new WeakMap<object, number>();
    reference.app.addHook('onResponse', async (req, reply) => {
      if (req.method === 'POST' && pathOf(req) === '/api/v1/submissions' && reply.statusCode === 422 && req.account)
        refused.set(req.account, (refused.get(req.account) ?? 0) + 1);
    });
    rewriteJson(reference, (body, req: FastifyRequest) => {
      if (req.method !== 'GET' || pathOf(req) !== list || !isEnvelope(body)) return body;
      const query = req.query as Record<string, unknown>;
      if (filters.some((f) => query[f] !== undefined)) return body;
      return { ...body, total_count: body.total_count + (refused.get(req.account) ?? 0) };
    });
  },
});
