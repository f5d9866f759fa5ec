import { describeRequest } from '../../src/http/exchange.js';
import type { ConformanceDocument } from '../../src/report/document.js';

/** How much of a response body each line shows: enough to see what a finding pointed at. */
const BODY_EXCERPT = 300;

/**
 * The evidence of each check that failed or erred, from the run's own report, as lines a test
 * prints beside its failure: a red test run under load (a stress run, CI) names which exchange
 * proved what, with the check that sent it, even where the run's scratch folder is gone by the
 * time anyone reads the log. Secrets are redacted in the report already.
 */
export function failureEvidence(report: ConformanceDocument, most = 3): string {
  return report.clauses
    .flatMap((clause) => clause.checks.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => ({ clause: clause.id, check: c })))
    .map(({ clause, check }) => {
      const exchanges = (check.evidence ?? []).slice(0, most).map((e) => {
        const answer = e.response ? `${e.response.status} ${excerpt(e.response.body)}` : `no answer: ${e.failure?.message ?? '?'}`;
        return `  #${e.seq ?? '?'} (${e.check ?? '?'}) ${e.auth} ${describeRequest(e)} -> ${answer}`;
      });
      return [`${clause} ${check.status}: ${check.reason ?? ''}`, ...exchanges].join('\n');
    })
    .join('\n');
}

function excerpt(body: string): string {
  const flat = body.replace(/\s+/g, ' ');
  return flat.length > BODY_EXCERPT ? `${flat.slice(0, BODY_EXCERPT)}…` : flat;
}
