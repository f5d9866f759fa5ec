import type { ClauseContext } from '../../verdict/verdict.js';
import type { Selection } from '../../clauses/selection.js';
import type { Settings } from '../../config/settings.js';
import type { RunSlices } from '../slices.js';
import type { Exchange } from '../../http/exchange.js';
import type { Profile } from '../../profile/profile.js';
import { propertyBudget } from '../../check/property-budget.js';
import { poolSizeFor } from '../../keys/pool-size.js';
import { DEFAULT_MAX_SUBMISSIONS } from '../../broker/submission-cap.js';
import { estimate, loadEstimates, strengthOf, type RequestEstimates } from '../estimates.js';
import { schedule, targetPace, type Schedule } from '../schedule.js';
import { probesDeletion } from '../write-plan.js';
import type { Preflighted } from './preflight.js';

/** The run's plan: made once, from its settings and the target's first answers, and read by every later stage. */
export interface RunPlan {
  readonly selection: Selection;
  /** Cases a property (`--property-runs`, else the full budget). */
  readonly propertyRuns: number;
  /** Sequences the explorer draws beyond its cover (`--explore`, else `exploreBudget(propertyRuns)`). */
  readonly explore: number;
  /** `--max-submissions`, else the default cap. */
  readonly maxSubmissions: number;
  /** Keys the run spreads its work over, the pool, the windows and the wall time. */
  readonly schedule: Schedule;
  /** Where the target's window ended and how fast it answered, as the preflight saw. */
  readonly pace: ReturnType<typeof targetPace>;
}

/**
 * Plans the run once the preflight has spoken to the target (`log`: its exchanges): the checks
 * selected, their cases, the key pool's size (`poolSizeFor`), and the schedule over the target's
 * budgets from where its window stands and how fast it answers.
 */
export function planRun(
  settings: Pick<Settings, 'only' | 'skip' | 'readOnly' | 'maxKeys' | 'propertyRuns' | 'explore' | 'maxSubmissions'>,
  profile: Profile,
  hasOtherAccountKey: boolean,
  log: readonly Exchange[],
  estimates: RequestEstimates = loadEstimates(),
): RunPlan {
  const selection = { only: settings.only, skip: settings.skip };
  const propertyRuns = settings.propertyRuns ?? propertyBudget();
  const explore = settings.explore ?? undefined;
  const pace = targetPace(log, profile.limits);
  const poolSize = (keys: number) =>
    poolSizeFor(
      settings,
      () => estimate(estimates, { profile, selection, readOnly: false, hasOtherAccountKey }, 1, strengthOf(propertyRuns, explore, keys)).requests.main,
      pace.perKeyCeiling ?? profile.limits.perKeyPerMinute,
    );
  // What is sent only on a pool never makes one: sized without it first, and with it where a pool is made anyway.
  const alone = poolSize(1);
  const keys = alone > 1 ? poolSize(alone) : alone;
  const strength = strengthOf(propertyRuns, explore, keys);
  return {
    selection,
    propertyRuns: strength.propertyRuns,
    explore: strength.explore,
    maxSubmissions: settings.maxSubmissions ?? DEFAULT_MAX_SUBMISSIONS,
    schedule: schedule(estimates, { profile, selection, readOnly: settings.readOnly, hasOtherAccountKey, keys, ...strength, ...pace }),
    pace,
  };
}

/**
 * The run's plan, made once from the settings and the target's first answers, and read by every
 * later stage: the dry run, the key deletion probe and the pool, the checks' context, the
 * heartbeat's estimate, the report. What it holds, they no longer look up in the settings.
 */
export interface Plan extends RunPlan {
  readonly seed: number;
  readonly readOnly: boolean;
  /** `--leave-keys`. */
  readonly leaveKeys: boolean;
  /** The verdict's rule: `--strict` (a failed SHOULD fails the run too), `--require-complete`, `--certify`. */
  readonly strict: boolean;
  readonly requireComplete: boolean;
  readonly certify: boolean;
  readonly hasOtherAccountKey: boolean;
  /** The profile declares the key path and the key id member (`declaredDeletion`). */
  readonly deletionDeclared: boolean;
  /** One key is created first to find where keys are deleted (`probesDeletion`). */
  readonly probesDeletion: boolean;
  /** Which clauses apply, for the verdict and the report of a run that stops. */
  readonly clauses: ClauseContext;
  /** When the plan was made (ms): the report's planned wall time counts from the run's start to it. */
  readonly at: number;
  /** Requests the run had sent when the plan was made: the estimate counts those after. */
  readonly sentBefore: number;
}

export interface Planned extends Preflighted {
  readonly plan: Plan;
}

/** The plan stage: `planRun` over the preflight's exchanges, with the settings every later stage reads. */
export function planStage(input: Preflighted, settings: RunSlices['plan']): Planned {
  const { target, broker, teardown } = input;
  const profile = target.loaded.profile;
  const hasOtherAccountKey = target.keys.other !== null;
  const made = planRun(settings, profile, hasOtherAccountKey, broker.log());
  const deletionDeclared = teardown.deletion.source === 'declared';
  const { readOnly, leaveKeys } = settings;
  const plan: Plan = {
    ...made,
    seed: input.seed,
    readOnly,
    leaveKeys,
    strict: settings.strict,
    requireComplete: settings.requireComplete,
    certify: settings.certify,
    hasOtherAccountKey,
    deletionDeclared,
    probesDeletion: probesDeletion({ deletionDeclared, leaveKeys, readOnly, selection: made.selection }),
    clauses: { selection: made.selection, profile, hasOtherAccountKey, readOnly },
    at: Date.now(),
    sentBefore: broker.log().length,
  };
  return { ...input, plan };
}
