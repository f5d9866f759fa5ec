import { DEFAULT_MAX_SUBMISSIONS } from '../broker/submission-cap.js';
import { notRunCause } from '../clauses/applicability.js';
import { CLAUSE_IDS, FAMILIES, familyOf } from '../clauses/catalogue.js';
import type { Profile } from '../profile/profile.js';
import { estimate, loadEstimates, strengthOf, submissionPlan, type Estimate, type RequestEstimates, type Strength } from './estimates.js';
import type { Selection } from '../clauses/selection.js';
import { writePlan, writePlanLines } from './write-plan.js';
import { schedule, type Schedule } from './schedule.js';
import { scheduleLines } from './schedule-words.js';

export interface DryRunInput {
  readonly profile: Profile;
  readonly selection: Selection;
  readonly readOnly: boolean;
  readonly hasOtherAccountKey: boolean;
  /** Keys the run would spread the main key's work over (`--max-keys`), the configured one included. @default 1 */
  readonly keys?: number;
  /** Cases a property (`--property-runs`). @default the measured run's */
  readonly propertyRuns?: number;
  /** Sequences the explorer draws (`--explore`). @default `exploreBudget(propertyRuns)` */
  readonly explore?: number;
  /** `--max-submissions`. @default DEFAULT_MAX_SUBMISSIONS */
  readonly maxSubmissions?: number;
  /** Whether the profile declares the key path and id member. @default whether it declares both */
  readonly deletionDeclared?: boolean;
  /** `--leave-keys`. @default false */
  readonly leaveKeys?: boolean;
  /** The run's schedule (`planRun`, `stages/plan.ts`), made from the target's first answers. @default one made from the above, the target's window and pace unknown */
  readonly schedule?: Schedule;
}

/**
 * The pairs' line (suites/pairs.suite.ts): the covering array's requests, and those of the rows
 * drawn beyond it with the budget `--explore` leaves, as measured; none where the pairs do not run.
 */
function pairsLine(estimates: RequestEstimates, input: DryRunInput, strength: Strength): string[] {
  const pairs = { ...estimates, checks: estimates.checks.filter((c) => c.suite === 'pairs') };
  const sent = ({ requests }: Estimate) => requests.main + requests.other + requests.created + requests.anonymous;
  const whole = estimate(pairs, input, 1, strength);
  if (whole.checks === 0) return [];
  const array = sent(estimate(pairs, input, 1, { ...strength, explore: 0 }));
  return [
    `pairs: every pair of what the run varies (operation, credential, method, header, owners, rows) in about ${array} requests, ` +
      `a covering array of strength 2 drawn from the seed, and about ${sent(whole) - array} for rows drawn beyond it (--explore ${strength.explore})`,
  ];
}

/**
 * `--dry-run`: what the run would do after the preflight, without doing it: the checks by
 * family, the requests they need, and the time the target's rate limits put under them.
 * Request figures were measured against the embedded reference (fixtures/request-estimates.json);
 * walks of large collections cost more, up to their budget.
 */
export function dryRunLines(input: DryRunInput): string[] {
  const estimates = loadEstimates();
  const keys = input.keys ?? 1;
  const propertyRuns = input.propertyRuns ?? estimates.measuredWith.propertyRuns;
  const strength = strengthOf(propertyRuns, input.explore, keys);
  const total = estimate(estimates, input, keys, strength);
  const planned = input.schedule ?? schedule(estimates, { ...input, keys, ...strength });
  const { perKeyPerMinute, unauthenticatedPerMinute, windowSeconds } = input.profile.limits;
  const perRequest = planned.secondsPerRequest;
  const lines = [
    `dry run: ${total.checks} checks would run, ${total.leftOut} left out`,
    ...FAMILIES.map((family) => {
      const part = estimate({ ...estimates, checks: estimates.checks.filter((c) => familyOf(c.clause) === family) }, input, 1, strength);
      const sent = part.requests.main + part.requests.other + part.requests.created + part.requests.anonymous;
      return `  ${family.padEnd(5)} ${String(part.checks).padStart(3)} checks, about ${sent} requests, ${(sent * perRequest).toFixed(1)} s of them`;
    }),
    `requests: about ${total.requests.main} on the main key, ${total.requests.other} on the second account's, ` +
      `${total.requests.created} on keys the run creates, ${total.requests.anonymous} without a key`,
    ...pairsLine(estimates, input, strength),
    keys > 1
      ? `keys: up to ${keys}, the configured one and ${keys - 1} the run creates and deletes (--max-keys); what each carries, below`
      : 'keys: the configured one alone',
    `time: at ${perKeyPerMinute} a key and ${unauthenticatedPerMinute} without a key per ${windowSeconds} s, ` +
      `at least ${Math.max(1, planned.windows)} window(s), about ${Math.round(planned.seconds)} s by the schedule below` +
      ` (at ${propertyRuns} cases a property, ${strength.explore} sequence(s) explored beyond the cover)`,
    ...scheduleLines(planned),
  ];
  const notRun = CLAUSE_IDS.flatMap((id) => {
    const cause = notRunCause(id, { ...input, readOnly: false });
    return cause ? [`  ${id}: ${cause.reason}`] : [];
  });
  lines.push(submissionLine(input, estimates, strength));
  const plan = writePlan(
    {
      ...input,
      deletionDeclared: input.deletionDeclared ?? (input.profile.paths.apiKey !== null && input.profile.apiKeyFields.id !== null),
      leaveKeys: input.leaveKeys ?? false,
      poolSize: keys,
      ...strength,
    },
    estimates,
  );
  lines.push(...writePlanLines(plan, input.maxSubmissions ?? DEFAULT_MAX_SUBMISSIONS));
  if (notRun.length > 0) lines.push('clauses that will not run:', ...notRun);
  if (input.readOnly) lines.push('--read-only: checks that write are left out, and the run will be incomplete');
  return lines;
}

/** Submissions cannot be deleted: the plan says how many the run leaves, and for which clauses. */
function submissionLine(input: DryRunInput, estimates: RequestEstimates, strength: Strength): string {
  const cap = input.maxSubmissions ?? DEFAULT_MAX_SUBMISSIONS;
  if (input.readOnly) return 'submissions: none (--read-only)';
  const plan = submissionPlan(estimates, { ...input, maxSubmissions: cap }, strength);
  if (cap === 0)
    return `submissions: none (--max-submissions 0: no submission may be created; the checks of ${plan.clauses.join(', ')} that create one are not applicable, or send no request that may)`;
  if (plan.wanted === 0) return 'submissions: none';
  const held = plan.wanted > cap ? `; the checks want about ${plan.wanted}, so those last in line get fewer or none` : '';
  return `submissions: about ${plan.count}, never more than ${cap} (--max-submissions; they cannot be deleted), for ${plan.clauses.join(', ')}${held}`;
}
