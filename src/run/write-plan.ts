import { DEFAULT_MAX_SUBMISSIONS } from '../broker/submission-cap.js';
import { CLAUSE_IDS, familyOf, type ClauseId } from '../clauses/catalogue.js';
import type { Profile } from '../profile/profile.js';
import { keyPlan, loadEstimates, strengthOf, submissionPlan, type KeyPlan, type RequestEstimates, type SubmissionPlan } from './estimates.js';
import { selectionReason, type Selection } from '../clauses/selection.js';

/** What a run will write on the target, shown by `--dry-run` before anything is (`terraform plan`). */
export interface WritePlan {
  /** Keys of the pool (`--max-keys`), the configured key not counted: made only where keys can be deleted. */
  readonly pool: number;
  /** One key created and deleted to find the key path, where the profile declares none. */
  readonly probe: boolean;
  readonly checks: KeyPlan;
  /** Keys in all, at most: each deleted again by the run. */
  readonly keys: number;
  readonly submissions: SubmissionPlan;
}

export interface WritePlanInput {
  readonly profile: Profile;
  readonly selection: Selection;
  readOnly: boolean;
  readonly hasOtherAccountKey: boolean;
  /** Whether the profile declares the key path and id member (`declaredDeletion`). */
  readonly deletionDeclared: boolean;
  readonly leaveKeys: boolean;
  /** Keys the run spreads its work over, the configured one included (`poolSizeFor`). */
  readonly poolSize: number;
  readonly propertyRuns: number;
  /** Sequences the explorer draws (`--explore`). @default `exploreBudget(propertyRuns)` */
  readonly explore?: number;
  readonly maxSubmissions?: number;
}

/** Families whose checks create keys. */
const KEY_CREATING_FAMILIES = new Set(['KEY', 'AUTH', 'RATE']);

/** Whether the selection runs any check that creates a key. */
export function createsKeys(selection: Selection): boolean {
  return CLAUSE_IDS.some((id) => KEY_CREATING_FAMILIES.has(familyOf(id)) && selectionReason(id, selection) === null);
}

/**
 * Whether the run creates a probe key before anything else, to learn where keys are deleted: only
 * where the profile declares no key path, keys may be written and the selection creates some.
 */
export function probesDeletion(input: Pick<WritePlanInput, 'deletionDeclared' | 'leaveKeys' | 'readOnly' | 'selection'>): boolean {
  return !input.deletionDeclared && !input.leaveKeys && !input.readOnly && createsKeys(input.selection);
}

/** The keys and submissions the run will create at most, from the per-check figures of the measured run. */
export function writePlan(input: WritePlanInput, estimates: RequestEstimates = loadEstimates()): WritePlan {
  const maxSubmissions = input.maxSubmissions ?? DEFAULT_MAX_SUBMISSIONS;
  if (input.readOnly) return { pool: 0, probe: false, checks: { byChecks: 0, clauses: [] }, keys: 0, submissions: { count: 0, wanted: 0, clauses: [] } };
  const probe = probesDeletion(input);
  // The pool needs a key path: declared, or found by the probe.
  const pool = input.deletionDeclared || probe ? Math.max(0, input.poolSize - 1) : 0;
  const strength = strengthOf(input.propertyRuns, input.explore);
  const checks = keyPlan(estimates, input, strength);
  const submissions = submissionPlan(estimates, { ...input, maxSubmissions }, strength);
  return { pool, probe, checks, keys: pool + (probe ? 1 : 0) + checks.byChecks, submissions };
}

/** The plan in a few lines: totals first, then what each key is for (the submissions' line names their clauses). */
export function writePlanLines(plan: WritePlan, maxSubmissions = DEFAULT_MAX_SUBMISSIONS): string[] {
  const lines = [
    `write plan: at most ${plan.keys} key(s), each deleted again by the run, and about ${plan.submissions.count} submission(s) ` +
      `(at most ${maxSubmissions}, --max-submissions), which the document gives no way to delete`,
  ];
  const parts: string[] = [];
  if (plan.pool > 0) parts.push(`${plan.pool} for the key pool (the main key's work spread out; --max-keys)`);
  if (plan.probe) parts.push('1 to find where keys are deleted (the profile declares no key path)');
  if (plan.checks.byChecks > 0) parts.push(`${plan.checks.byChecks} by the checks of ${clauseCounts(plan.checks.clauses)}`);
  if (parts.length > 0) lines.push(`  keys: ${parts.join('; ')}`);
  return lines;
}

function clauseCounts(clauses: readonly { clause: ClauseId; keys: number }[]): string {
  return clauses.map((c) => `${c.clause} (${c.keys})`).join(', ');
}
