import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';
import { sendError } from '../../../reference/errors.js';

/** Rows a plan may submit in a billing month: far more than any run sends, so the refusal itself never shows. */
const MONTHLY_ROW_QUOTA = 1_000_000;

/*
 * How this happens: billing adds a monthly row quota per plan. The quota guard is written as a
 * generic preHandler ("meter before we do any work, so a refused request costs nothing") and it
 * reads `req.body.rows.length` to add the incoming rows to the month's meter. It runs before the
 * route's own validation, and its author assumed the body had already been validated. Every test
 * of the billing team sends a well-formed submission, so it never fires on anything else; a
 * submission without `rows` (or with `rows: null`, or a body that is not an object) now throws a
 * TypeError in the guard and comes back as a 500 api_error instead of the route's 400
 * missing_param / 422.
 */
export default defineMutant({
  description:
    'The plan row-quota guard on POST /api/v1/submissions reads body.rows.length before the body is validated, so a submission that omits rows (or sends rows null, or a non-object body) gets 500 api_error instead of 400 missing_param.',
  breaks: { 'ERR-3': 'fail', 'GEN-3': 'warn' },
  collateral: ['ERR-7', 'GEN-4', 'SUB-2', 'SUB-3'],
  provokedBy: ['SUB'],
  modify: (reference) => {
    const meter = new Map<string, number>();
    reference.app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      const body = req.body as { rows: unknown[] };
      const used = meter.get(req.account.id) ?? 0;
      const incoming = body.rows.length;
      if (used + incoming > MONTHLY_ROW_QUOTA) {
        return sendError(reply, 422, 'plan_limit_exceeded', 'This submission exceeds the monthly row quota of your plan.', {
          code: 'limit_exceeded',
          param: 'rows',
        });
      }
      meter.set(req.account.id, used + incoming);
    });
  },
});
