import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReferenceApp } from '../../reference/server.js';
import { beforeHandler, pathOf } from '../../mutants/support.js';

/** One empty string a submission request holds, where the reference would refuse it 422. */
export interface EmptyValue {
  /** The input's name: the body member, or the query parameter's name. */
  readonly param: string;
  readonly where: 'query' | 'body';
}

/**
 * Runs `answer` for the first empty string among the workspace query parameter, the body's
 * workspace_id and the body's taxonomy_id of `POST /api/v1/submissions`, before the reference
 * validates the request (after authentication). The query is looked at first, as the reference does.
 */
export function onEmptySubmissionValue(
  reference: ReferenceApp,
  answer: (empty: EmptyValue, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
): void {
  const param = reference.state.profile.submissions.workspaceQueryParam ?? 'workspace_id';
  beforeHandler(reference, async (req, reply) => {
    if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
    if ((req.query as Record<string, unknown>)[param] === '') return answer({ param, where: 'query' }, req, reply);
    const body = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
    for (const member of ['workspace_id', 'taxonomy_id'] as const) {
      if ((body as Record<string, unknown>)[member] === '') return answer({ param: member, where: 'body' }, req, reply);
    }
  });
}
