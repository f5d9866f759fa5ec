import type { Selection } from '../clauses/selection.js';
import type { Exchange } from '../http/exchange.js';
import { rateHeaders } from '../http/rate-headers.js';
import { serverClockOf } from '../http/server-clock.js';
import { suiteNow } from '../clock.js';
import { notRunCause } from '../clauses/applicability.js';
import type { Profile } from '../profile/profile.js';
import { atStrength, estimate, strengthOf, type Estimate, type RequestEstimates } from './estimates.js';
import { SUITE_PHASES } from '../check/suite-order.js';
import { PHASE_BUDGETS, windowsCrossed, type ByBudget } from './phase-windows.js';

/**
 * The run's schedule, made before its first check: the requests each rate-limit budget carries
 * (the configured key, each key of the pool, the second account's key, the budget without a key),
 * the windows each needs, the checks that wait a window out, and the wall time all that predicts.
 * `--dry-run` prints it; the run makes it again from the target's first answers (where its window
 * ends, how fast it answers), the heartbeat counts down from it, and the report sets it against
 * what the run took.
 */
export interface Schedule {
  /** Keys of the main account the work is spread over, the configured one included. */
  readonly keys: number;
  readonly budgets: readonly PlannedBudget[];
  /** Windows the busiest budget needs: the floor the limits set (at least one where a check waits one out). */
  readonly windows: number;
  /** The checks that wait for a window to end, whose wait the rest of the run overlaps. */
  readonly waits: readonly string[];
  readonly windowSeconds: number;
  /** Seconds until the target's current window ends, as its X-RateLimit-Reset said; null: not known (a whole window is assumed). */
  readonly firstWindowEndsInS: number | null;
  /** Seconds the run's requests take at the target's pace, the lanes of a phase beside each other, waits aside, the start included. */
  readonly workSeconds: number;
  /** Of those, starting the checks before their first request. */
  readonly startupSeconds: number;
  /** Seconds one request takes at the target's pace, the harness's own work included. */
  readonly secondsPerRequest: number;
  /** The predicted wall time of the run, start to report. */
  readonly seconds: number;
  /** The wall time wherever in a window the run starts (the first window whole). */
  readonly worstSeconds: number;
  /** Requests in all, planned 429s included. */
  readonly requests: number;
  /** Requests the run sends of its own after the schedule is made, outside any check (the pool's keys). */
  readonly ownRequests: number;
  /** Each selected check's requests (`clause/key`): on each budget, and in all; and its phase. */
  readonly perCheck: ReadonlyMap<string, PlannedCheck>;
  /** A window's ceiling on each budget the phases are counted on: the main account's keys together, the second account's key. */
  readonly phaseCeilings: ByBudget;
}

/**
 * A check's requests on the budgets its phase's windows are counted on (`phase-windows.ts`): the
 * main account's keys, the second account's key; in all; and the phase it runs in (`SUITE_PHASES`,
 * -1 where the estimates name no suite).
 */
export interface PlannedCheck extends ByBudget {
  readonly all: number;
  readonly phase: number;
}

/** A rate-limit budget the schedule fills: whose, how many requests, its ceiling a window, the windows they need. */
export interface PlannedBudget {
  readonly who: string;
  /** How many budgets of the kind (the pool's keys: one line for them all); requests are each one's. */
  readonly count: number;
  readonly requests: number;
  readonly ceiling: number;
  readonly windows: number;
}

export interface ScheduleInput {
  readonly profile: Profile;
  readonly selection: Selection;
  readonly readOnly: boolean;
  readonly hasOtherAccountKey: boolean;
  /** Keys the main key's work is spread over, the configured one included (`poolSizeFor`). */
  readonly keys: number;
  readonly propertyRuns: number;
  /** Sequences the explorer draws (`--explore`). @default `exploreBudget(propertyRuns)` */
  readonly explore?: number;
  /** Seconds until the target's current window ends (the preflight's X-RateLimit-Reset); null where unknown. */
  readonly firstWindowEndsInS?: number | null;
  /** Seconds one request takes, the harness's own work included (the preflight's pace). @default SECONDS_PER_REQUEST */
  readonly secondsPerRequest?: number;
  /** A key's ceiling a window as the target's X-RateLimit-Limit says, where it says one below the profile's (`targetPace`). @default the profile's */
  readonly perKeyCeiling?: number | null;
}

/** A request's cost on this machine against a target next to it: the harness, the check, the reference. */
export const SECONDS_PER_REQUEST = 0.002;

/** Starting the checks (vitest and the suites' modules), before the first check's request. */
const STARTUP_S = 2.5;
/** Closing: the run-wide judges, the teardown's deletions aside, the reports and their scan. */
export const CLOSING_S = 2;
/**
 * Requests the configured key sends besides the checks' share: the preflight, the key deletion
 * probe, the test that the pool's keys have budgets apart.
 */
const OWN_REQUESTS = 12;
/** Requests that tell whether the pool's keys have budgets apart (`keys/pool.ts`, at most three readings of three). */
const SHARED_BUDGET_PROBES = 9;
/** The check whose burst without a key counts the run's other requests without a key (suites/ip-limits.suite.ts). */
export const HEADERLESS_BURST = {
  clause: 'RATE-7',
  key: 'ceiling-without-key',
  /**
   * Its requests past the 429, in the same window, each meant to meet a 429 too: two per request
   * header naming another client address (suites/catalogues/request-headers.ts), and the same
   * request without one (test/schedule.test.ts holds the count to the catalogue's).
   */
  afterCeiling: 7,
} as const;
/**
 * The checks that share one key exhausted on purpose (suites/rate-limits.suite.ts): its burst is no
 * one check's evidence, so the request estimates do not count it.
 */
const EXHAUSTED_KEY = [
  { clause: 'RATE-3', key: 'ceiling-with-key' },
  { clause: 'RATE-5', key: 'retry-after-honoured' },
  { clause: 'RATE-6', key: 'created-key-apart' },
] as const;
/** The checks that wait for a window to end, in words. */
export const WINDOW_WAITS: readonly { clause: string; key: string; words: string }[] = [
  { clause: 'RATE-5', key: 'retry-after-honoured', words: "RATE-5 (the exhausted key's Retry-After)" },
];

/** Where the estimates name no suite (measured before the lanes): run one after another. */
const UNPLACED = '';
/** The suite whose checks wait for a window (RATE-5) and send the burst no check's estimate counts. */
const RATE_LIMITS_SUITE = 'rate-limits';
/** The suite of RATE-7's burst without a key, which counts the run's earlier requests without a key. */
const IP_LIMITS_SUITE = 'ip-limits';

/**
 * The suites' requests placed in their phases, lanes and steps (`SUITE_PHASES`): a step takes as
 * long as its busiest suite, a lane its steps one after another, a phase its longest lane; summed
 * over the phases (`longest`), and where `suite` starts: the phases before it and the steps before
 * it in its lane (`before`). Requests of no known suite go one after another.
 */
export function laneWork(bySuite: ReadonlyMap<string, number>, suite: string): { readonly longest: number; readonly before: number } {
  const stepOf = (step: readonly string[]) => Math.max(0, ...step.map((name) => bySuite.get(name) ?? 0));
  const stepsOf = (steps: readonly (readonly string[])[]) => steps.reduce((sum, step) => sum + stepOf(step), 0);
  const holds = (step: readonly string[]) => step.includes(suite);
  let longest = bySuite.get(UNPLACED) ?? 0;
  let before: number | null = null;
  for (const lanes of SUITE_PHASES) {
    const lane = lanes.find((l) => l.steps.some(holds));
    if (before === null && lane) before = longest + stepsOf(lane.steps.slice(0, lane.steps.findIndex(holds)));
    longest += Math.max(0, ...lanes.map((l) => stepsOf(l.steps)));
  }
  return { longest, before: before ?? longest };
}

/**
 * Places the selected checks' requests on the run's budgets (the request estimates,
 * `fixtures/request-estimates.json`) and predicts the wall time: the busiest budget's windows,
 * a wait for the end of a window where a check needs one, and the requests' own pace.
 */
export function schedule(estimates: RequestEstimates, input: ScheduleInput): Schedule {
  const { unauthenticatedPerMinute: perIp, windowSeconds } = input.profile.limits;
  const perKey = input.perKeyCeiling ?? input.profile.limits.perKeyPerMinute;
  const perRequest = input.secondsPerRequest ?? SECONDS_PER_REQUEST;
  const strength = strengthOf(input.propertyRuns, input.explore, input.keys);
  const whole: Estimate = estimate(estimates, input, input.keys, strength);
  const selected = (clause: string, key: string) => {
    const c = estimates.checks.find((x) => x.clause === clause && x.key === key);
    return c !== undefined && notRunCause(c.clause, input, c) === null;
  };
  const perCheck = new Map<string, PlannedCheck>();
  const bySuite = new Map<string, number>();
  // The configured key deletes the keys a check made, unless the check deleted them with keys of its
  // own (the explorer's actors): at most one of its requests on the configured key per key.
  let deletionsOnMain = 0;
  for (const c of estimates.checks) {
    if (notRunCause(c.clause, input, c)) continue;
    const { sent, keys } = atStrength(estimates, c, strength);
    // Every kind measured, and the main key's, which carries a pool key's requests where there is no pool (`atStrength`).
    const kinds = new Set([...(Object.keys(c.requests) as (keyof typeof c.requests)[]), 'main' as const]);
    const all = [...kinds].reduce((sum, kind) => sum + sent(kind), 0);
    perCheck.set(checkId(c), { main: sent('main'), other: sent('other'), all, phase: phaseOf(c.suite ?? UNPLACED) });
    bySuite.set(c.suite ?? UNPLACED, (bySuite.get(c.suite ?? UNPLACED) ?? 0) + all);
    if (keys > 0) deletionsOnMain += Math.min(sent('main'), keys);
  }
  const poolKeys = input.keys - 1;
  // The configured key alone deletes keys and carries what is not spread; the pool takes the rest, the configured key its overflow.
  const unspread = Math.min(whole.requests.main, deletionsOnMain);
  const spread = whole.requests.main - unspread;
  const perPoolKey = poolKeys > 0 ? Math.min(perKey, Math.ceil(spread / poolKeys)) : 0;
  const overflow = Math.max(0, spread - perPoolKey * poolKeys);
  // Of the pool's, two per key: creating it, and deleting it in the teardown (its first use is its own).
  const mainOwn = OWN_REQUESTS + 2 * poolKeys + unspread + overflow;
  // The pacer holds back on the configured key, during the run, one request per live key and one
  // besides (`holdBack`): the teardown's deletions, which `mainOwn` already counts. Only the one
  // besides is the window's less; subtracting every live key too counted each deletion twice.
  const mainCeiling = Math.max(1, perKey - 1);
  // One window without a key: the others' requests count toward the burst, which sends the rest.
  const burst = selected(HEADERLESS_BURST.clause, HEADERLESS_BURST.key) && !input.readOnly;
  const burstRequests = burst ? perIp + 1 + HEADERLESS_BURST.afterCeiling : 0;
  const others = burst ? Math.max(0, whole.requests.anonymous - burstRequests) : whole.requests.anonymous;
  // The exhausted key's burst is no check's in the estimates: the rate-limits suite sends it.
  const exhausting = !input.readOnly && EXHAUSTED_KEY.some((c) => selected(c.clause, c.key)) ? perKey + 2 : 0;
  if (exhausting > 0) bySuite.set(RATE_LIMITS_SUITE, (bySuite.get(RATE_LIMITS_SUITE) ?? 0) + exhausting);
  const lanes = laneWork(bySuite, RATE_LIMITS_SUITE);
  // Before the checks: the preflight's and the pool's own (creating each key and its first use).
  const beforeChecks = OWN_REQUESTS + 2 * poolKeys;
  const reaches = (before: number) => STARTUP_S + (beforeChecks + before) * perRequest;
  const reachesRateLimitsS = reaches(lanes.before);
  // They share a window only where the run reaches RATE-7 before the window of AUTH-1 ends (the
  // embedded reference's 1-s windows end between them: two windows, neither waited for).
  const shared = burst && others <= perIp && reaches(laneWork(bySuite, IP_LIMITS_SUITE).before) < windowSeconds;
  const withoutKey = shared ? Math.max(others + 1, burstRequests) : others + burstRequests;
  const windowsOf = (requests: number, ceiling: number, planned429 = 0) => Math.max(requests > 0 ? 1 : 0, Math.ceil((requests - planned429) / ceiling));
  const budgets: PlannedBudget[] = [
    { who: 'the configured key', count: 1, requests: mainOwn, ceiling: mainCeiling, windows: windowsOf(mainOwn, mainCeiling) },
    ...(poolKeys > 0 ? [{ who: 'keys of the pool', count: poolKeys, requests: perPoolKey, ceiling: perKey, windows: windowsOf(perPoolKey, perKey) }] : []),
    ...(whole.requests.other > 0
      ? [{ who: "the second account's key", count: 1, requests: whole.requests.other, ceiling: perKey, windows: windowsOf(whole.requests.other, perKey) }]
      : []),
    ...(withoutKey > 0
      ? [
          {
            who: 'requests without a key',
            count: 1,
            requests: withoutKey,
            ceiling: perIp,
            windows: windowsOf(withoutKey, perIp, burst ? 1 + HEADERLESS_BURST.afterCeiling : 0),
          },
        ]
      : []),
  ];
  if (exhausting > 0) budgets.push({ who: 'a key exhausted on purpose', count: 1, requests: exhausting, ceiling: perKey, windows: 1 });
  // The run's own on the configured key, the pool's among them: creating each key and its first use, then its deletion in the teardown.
  const ownOfRun = OWN_REQUESTS + 3 * poolKeys;
  const requests = whole.requests.main + whole.requests.other + whole.requests.created + exhausting + withoutKey + ownOfRun;
  const waits = input.readOnly ? [] : WINDOW_WAITS.filter((w) => selected(w.clause, w.key)).map((w) => w.words);
  // The phases one after another: a later phase's budget takes windows after the earlier phases' (`phase-windows.ts`).
  const ceilings = { main: mainCeiling + poolKeys * perKey, other: perKey };
  const phased = windowsCrossed([{ main: ownOfRun, other: 0 }, ...phaseRequests(perCheck.values())], ceilings, ceilings) + 1;
  const windows = Math.max(waits.length > 0 ? 1 : 0, ...budgets.map((b) => b.windows), requests > 0 ? phased : 0);
  // The lanes of a phase run beside each other: a phase takes as long as its longest lane.
  const workSeconds = STARTUP_S + (beforeChecks + lanes.longest) * perRequest;
  const closing = CLOSING_S + poolKeys * perRequest;
  const wallFor = (firstEnd: number) => {
    if (windows === 0) return workSeconds + closing;
    // The last window the work needs ends (windows - 1) windows after the first; a check that waits
    // one out waits for it. A first window that ends before the work reaches its waiting checks
    // (the rate-limit suite) adds one.
    const late = waits.length > 0 && windows === 1 && firstEnd < reachesRateLimitsS ? 1 : 0;
    const windowsEnd = firstEnd + (windows - 1 + late) * windowSeconds;
    return Math.max(windowsEnd, workSeconds) + closing;
  };
  const firstEnd = input.firstWindowEndsInS ?? null;
  const worstSeconds = wallFor(windowSeconds);
  return {
    keys: input.keys,
    budgets,
    windows,
    waits,
    windowSeconds,
    firstWindowEndsInS: firstEnd,
    workSeconds,
    startupSeconds: STARTUP_S,
    secondsPerRequest: perRequest,
    seconds: firstEnd === null ? worstSeconds : wallFor(firstEnd),
    worstSeconds,
    requests,
    ownRequests: 2 * poolKeys + (poolKeys > 0 ? SHARED_BUDGET_PROBES : 0),
    perCheck,
    phaseCeilings: ceilings,
  };
}

/** The phase a suite runs in (`SUITE_PHASES`); -1, first, for requests of no known suite. */
function phaseOf(suite: string): number {
  return SUITE_PHASES.findIndex((lanes) => lanes.some((lane) => lane.steps.some((step) => (step as readonly string[]).includes(suite))));
}

/** The checks' requests summed by phase, in the order the phases run. */
export function phaseRequests(checks: Iterable<PlannedCheck>): ByBudget[] {
  const byPhase = new Map<number, Record<keyof ByBudget, number>>();
  for (const c of checks) {
    const sum = byPhase.get(c.phase) ?? { main: 0, other: 0 };
    for (const budget of PHASE_BUDGETS) sum[budget] += c[budget];
    byPhase.set(c.phase, sum);
  }
  return [...byPhase].sort(([a], [b]) => a - b).map(([, sum]) => sum);
}

/** A check's name in `Schedule.perCheck`. */
export function checkId(check: { readonly clause: string; readonly key: string }): string {
  return `${check.clause}/${check.key}`;
}

/**
 * Where the target's current window ends and how fast it answers, from the run's first exchanges
 * (the preflight): the schedule's first window and its pace. A Reset that is no Unix time within a
 * window of now says nothing of the window (another convention, a sliding window): unknown.
 */
export function targetPace(
  log: readonly Exchange[],
  limits: { readonly windowSeconds: number; readonly perKeyPerMinute: number },
  now = suiteNow(),
): { readonly firstWindowEndsInS: number | null; readonly secondsPerRequest: number; readonly perKeyCeiling: number | null } {
  const { windowSeconds } = limits;
  const keyed = log.filter((e) => e.auth === 'main' && e.response !== undefined);
  const last = keyed.length > 0 ? rateHeaders(keyed[keyed.length - 1]!.response!.headers) : null;
  const reset = last?.reset ?? null;
  // A ceiling below the profile's (or the document's 100): the target's word is what the pacer
  // keeps to. One above it is a claim the keys may not keep (RATE-2 judges it): a plan sized on it
  // would meet windows it never planned for, a pool too small and a run many windows longer.
  const perKeyCeiling = last?.limit !== null && last?.limit !== undefined && last.limit > 0 && last.limit < limits.perKeyPerMinute ? last.limit : null;
  // The Reset is on the target's clock: read on the suite's through the Date headers.
  const endsInS = reset === null ? null : (serverClockOf(log).toSuite(reset * 1000) - now) / 1000;
  const firstWindowEndsInS = endsInS !== null && endsInS > 0 && endsInS <= windowSeconds + 1 ? endsInS : null;
  // The quickest answer: the first ones are slow with the connection's setup and a cold start.
  const quickest = Math.min(...log.map((e) => e.durationMs / 1000));
  return { firstWindowEndsInS, secondsPerRequest: Math.max(SECONDS_PER_REQUEST, Number.isFinite(quickest) ? quickest : 0), perKeyCeiling };
}
