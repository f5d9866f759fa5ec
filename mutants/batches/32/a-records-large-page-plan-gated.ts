import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';
import { sendError } from '../../../reference/errors.js';

/** The page size the plan gate lets through on the records list. */
const PLAN_MAX_LIMIT = 1000n;

/*
 * How this happens: bulk exports of records were hurting the database, so product made "large
 * pages" an Enterprise feature. The developer put the gate in the records controller, reusing the
 * plan-check helper the write endpoints use, which answers 422 `plan_limit_exceeded`. Pagination
 * is validated before the gate, so limit=0 or limit=10001 still get the proper
 * invalid_request_error. The workspace and model lists, whose limit is never large in practice,
 * did not get the gate. So only the records list rejects limits from 1001 to 10000.
 */
export default defineMutant({
  description:
    'The records list answers a limit between 1001 and 10000 with 422 plan_limit_exceeded (code feature_required, param limit) instead of serving the page; other lists accept the full range.',
  breaks: { 'PAG-4': 'fail', 'ERR-6': 'fail' },
  collateral: ['PAG-7', 'PAG-8', 'PAG-9', 'PAG-10', 'RES-4', 'RES-7'],
  modify: (reference) => {
    const { behaviour } = reference;
    reference.app.addHook('preHandler', async (req, reply) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || pathOf(req) !== '/api/v1/records') return;
      const query = req.query as Record<string, unknown>;
      const page = behaviour.parsePageParam(query.page, 'page');
      const limit = behaviour.parsePageParam(query.limit, 'limit');
      // Validation first (the reference's own 422s), then the plan gate.
      if (!page.ok || !limit.ok || limit.value <= PLAN_MAX_LIMIT) return;
      return sendError(reply, 422, 'plan_limit_exceeded', `Pages of more than ${PLAN_MAX_LIMIT} records require the Enterprise plan.`, {
        code: 'feature_required',
        param: 'limit',
      });
    });
  },
});
