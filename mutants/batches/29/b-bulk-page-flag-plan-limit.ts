import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: during an incident, a few integrations pulling whole collections at
 * limit=10000 saturated the database's read replicas. The on-call engineer put large pages behind
 * a `bulk_pages` feature flag in the shared list middleware ("enterprise accounts only, we'll sort
 * the plans out later"), reusing the plan-limit error the billing code already had. The flag was
 * never switched on for anyone and the guard stayed: every list request whose limit is above 1000
 * is refused with 422 plan_limit_exceeded, although the document accepts limits up to 10000 and
 * says read-only endpoints never answer plan_limit_exceeded.
 */
export default defineMutant({
  description:
    'List endpoints refuse a limit above 1000 with 422 plan_limit_exceeded (code feature_required, param limit) unless the account has the bulk-pages feature.',
  breaks: { 'PAG-4': 'fail', 'ERR-6': 'fail' },
  collateral: [
    'PAG-5',
    'PAG-6',
    'PAG-7',
    'PAG-8',
    'PAG-9',
    'PAG-10',
    'RES-1',
    'RES-2',
    'RES-3',
    'RES-4',
    'RES-5',
    'RES-6',
    'RES-7',
    'AUTH-6',
    'KEY-3',
    'KEY-6',
    'KEY-7',
    'SUB-4',
  ],
  modify: (reference) => {
    const { paths } = reference.state.profile;
    const lists = new Set<string>(['/api/v1/workspaces', '/api/v1/governance_models', '/api/v1/records']);
    for (const path of [paths.taxonomies, paths.fields, paths.picklists, paths.apiKeyList, paths.submissionList]) {
      if (path) lists.add(path);
    }
    reference.app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'GET' || !lists.has(pathOf(req))) return;
      const raw = (req.query as Record<string, unknown>).limit;
      if (typeof raw !== 'string' || !(Number(raw) > 1000)) return;
      return reply.code(422).send({
        error: {
          type: 'plan_limit_exceeded',
          code: 'feature_required',
          message: 'Pages of more than 1000 items need the bulk pages feature, which is not part of your plan.',
          param: 'limit',
          path: null,
        },
      });
    });
  },
});
