import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: the service is ported from Node to Spring Boot. List controllers declare
 * `@RequestParam(defaultValue = "1") int page, @RequestParam(defaultValue = "100") int limit`, and
 * the range checks (page >= 1, limit 1..10000) throw the team's ValidationException, which their
 * @ControllerAdvice turns into the API's 422 envelope. The ported tests try page=0 and
 * limit=10001, and both still give the right 422. But a value Spring cannot bind to an `int` at
 * all (`abc`, `1.5`, `1e2`, anything past 2^31-1) fails earlier, in argument binding, with a
 * MethodArgumentTypeMismatchException the advice does not handle; Spring Boot's BasicErrorController
 * answers it with its own default body, `{"timestamp", "status": 400, "error": "Bad Request",
 * "path"}`. Integer.valueOf accepts a sign and Spring trims whitespace first, so `+5` or ` 5` bind
 * as 5 and `-1` reaches the range check as before.
 */
export default defineMutant({
  description:
    'On every list endpoint, a page or limit that is not a 32-bit integer (text, a fraction, an exponent, a number past 2^31-1) gets the framework\'s default 400 body {timestamp, status, error: "Bad Request", path} instead of a 422 invalid_request_error naming the parameter.',
  breaks: { 'PAG-5': 'fail', 'ERR-1': 'fail', 'PAG-10': 'warn' },
  collateral: ['PAG-3', 'PAG-4', 'ERR-7'],
  modify: (reference) => {
    const { profile } = reference.state;
    const { paths } = profile;
    const lists = new Set(
      [
        '/api/v1/workspaces',
        '/api/v1/governance_models',
        '/api/v1/records',
        paths.taxonomies,
        paths.fields,
        paths.picklists,
        paths.apiKeyList,
        paths.submissionList,
      ].filter((p): p is string => typeof p === 'string'),
    );
    const INT_MIN = -(2n ** 31n);
    const INT_MAX = 2n ** 31n - 1n;
    /** What Spring's String-to-int conversion makes of a value: the int, or null when binding fails. */
    const bindInt = (raw: string): bigint | null => {
      const trimmed = raw.replace(/\s/g, '');
      if (!/^[+-]?[0-9]+$/.test(trimmed)) return null;
      const value = BigInt(trimmed);
      return value < INT_MIN || value > INT_MAX ? null : value;
    };
    reference.app.addHook('preHandler', async (req, reply) => {
      if ((req.method !== 'GET' && req.method !== 'HEAD') || !lists.has(pathOf(req))) return;
      const query = req.query as Record<string, unknown>;
      for (const name of ['page', 'limit'] as const) {
        const raw = query[name];
        // Absent or empty: the defaultValue applies; repeated: left to the reference.
        if (typeof raw !== 'string' || raw === '') continue;
        const value = bindInt(raw);
        if (value === null) {
          return reply
            .code(400)
            .type('application/json')
            .send({ timestamp: new Date(reference.state.now()).toISOString().replace('Z', '+00:00'), status: 400, error: 'Bad Request', path: pathOf(req) });
        }
        // Bound: the range check sees the int (a negative one fails it as 0 would).
        query[name] = value < 0n ? '0' : value.toString();
      }
    });
  },
});
