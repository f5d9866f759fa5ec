import { check, judgedBy, RUN_WIDE_JUDGES, type CheckOptions, type RunWideClause } from '../src/kit.js';

// The run-level phase: clauses that judge every response of the run, from every suite, in the
// broker's log. Runs last (src/check/suite-order.ts).

/** Evidence kept per clause: the first few offending exchanges. */
const EVIDENCE = 3;

/** Each clause has one check here: known by this key within its clause, it judges every exchange of the run. */
const KEY = 'run-wide';
const TITLES: Record<RunWideClause, string> = {
  'KEY-6': 'no key list of the run shows a key whose deletion was answered before it',
  'RES-1': "every workspace of every list page of the run has the document's fields and types",
  'RES-2': "every governance model of every list page of the run has the document's fields and types",
  'RES-3': "every record of every list page of the run has the document's fields and types",
  'SUB-1': "every submission of the run of one row holding the profile's sample row, into a workspace and taxonomy the key had submitted to, answers 201",
  'AUTH-1': 'no request of the run without an Authorization header was served',
  'AUTH-2': 'no request of the run with a malformed Authorization header was served',
  'AUTH-3': 'no request of the run with an unknown or revoked key was served',
  'GEN-1': 'every response of the run is JSON',
  'GEN-3': 'no response of the run is a 5xx',
  'GEN-5': 'every JSON response of the run is labelled with a JSON media type',
  'ERR-1': 'every error of the run is in the error envelope',
  'ERR-2': 'every error of the run has a documented type that agrees with its status',
  'ERR-4': 'every 422 invalid_request_error of the run names its param',
  'ERR-6': 'no read-only request of the run was answered with a write-only error type',
  'PAG-1': 'every list response of the run is the pagination envelope',
  'KEY-4': 'no response of the run after a key was created contains a part of its secret',
  'RATE-1': 'every authenticated success of the run carries the X-RateLimit headers, and every one sent is an integer',
  'RATE-2': 'every X-RateLimit header of the run is plausible',
  'RATE-8': 'X-RateLimit-Remaining falls with each sequential request of a key',
  'RATE-9': 'Retry-After appears on 429 responses only',
};
/** The states of the resource a clause's judgement spans, where it tells them apart (docs/coverage.md). */
const STATES: Partial<Record<RunWideClause, CheckOptions['states']>> = {
  // A key's secret is looked for in every response after its creation: while fresh, used, and deleted.
  'KEY-4': ['fresh', 'used', 'deleted'],
  'KEY-6': ['deleted'],
};

for (const clause of Object.keys(RUN_WIDE_JUDGES) as RunWideClause[]) {
  check(
    clause,
    TITLES[clause],
    async (t) => {
      // Read once for all the clauses: the suites before have ended, and judging sends nothing.
      const log = await t.once('log', () => t.log());
      if (log.length === 0) t.skip('the run made no request');
      const revealed = await t.once('revealed', () => t.secrets.revealedShapes());
      const violations = RUN_WIDE_JUDGES[clause](judgedBy(clause, log), t.profile, revealed);
      if (violations.length === 0) return;
      const more = violations.length > 1 ? ` (and ${violations.length - 1} more response(s))` : '';
      t.fail(`${violations[0]!.reason}${more}`, ...violations.slice(0, EVIDENCE).map((v) => v.exchange));
    },
    { key: KEY, judges: 'run', states: STATES[clause] },
  );
}
