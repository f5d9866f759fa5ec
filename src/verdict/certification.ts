import { missingNeeds } from '../clauses/applicability.js';
import { CLAUSE_IDS, CLAUSES, NEEDS } from '../clauses/catalogue.js';
import { ConformanceError } from '../errors.js';
import { EXIT_CODES, type ClauseContext, type ClauseResult, type VerdictResult } from './verdict.js';

/**
 * MUST clauses a certification run did not judge, each with what would make it judged: the
 * profile facts (or settings) it lacks, or why it was not run.
 */
export function unjudgedForCertification(results: readonly ClauseResult[], context: ClauseContext | null): string[] {
  return results
    .filter((r) => r.level === 'MUST' && r.status !== 'pass' && r.status !== 'fail')
    .map((r) => {
      const missing = context && r.status === 'not_applicable' ? missingNeeds(r.id, context) : [];
      if (missing.length > 0) return `${r.id} not applicable, would apply with ${missing.map((need) => NEEDS[need]).join(', ')}`;
      return `${r.id} ${r.status.replace('_', ' ')}${r.reason ? ` (${r.reason})` : ''}`;
    });
}

/**
 * A certificate says every MUST clause was judged: a certification run that leaves one
 * unjudged, and found no failure, is inconclusive (exit 2) for certification, naming each such
 * clause and the profile facts that would make it applicable. A failure found stays a failure.
 */
export function certificationVerdict(verdict: VerdictResult, results: readonly ClauseResult[], context: ClauseContext | null): VerdictResult {
  if (verdict.verdict !== 'conformant') return verdict;
  const unjudged = unjudgedForCertification(results, context);
  if (unjudged.length === 0) return verdict;
  return {
    ...verdict,
    verdict: 'inconclusive',
    exitCode: EXIT_CODES.inconclusive,
    because: `a certification needs every MUST clause judged; ${unjudged.length} not: ${unjudged.join('; ')}`,
  };
}

/**
 * A certification run refuses, before its first request, a profile (or settings) that leaves a
 * MUST clause unable to apply: one line, exit 2, naming each such clause and the fact that would
 * make it apply, instead of running for a minute to say so in its verdict.
 */
export function checkProfileCertifiable(context: Pick<ClauseContext, 'profile' | 'hasOtherAccountKey'>, profileName: string): void {
  const unable = CLAUSE_IDS.filter((id) => CLAUSES[id].level === 'MUST').flatMap((id) => {
    const missing = missingNeeds(id, context);
    return missing.length > 0 ? [`${id} needs ${missing.map((need) => NEEDS[need]).join(', ')}`] : [];
  });
  if (unable.length === 0) return;
  throw new ConformanceError(
    'CONF_PROFILE_INCOMPLETE',
    `--certify refuses the profile ${JSON.stringify(profileName)}: ${unable.length} MUST clause(s) could not apply: ${unable.join('; ')}; declare them (conformance init finds what it can) or run without --certify`,
  );
}
