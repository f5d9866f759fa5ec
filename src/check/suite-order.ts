import { basename } from 'node:path';
import { CLAUSE_IDS, familyOf, type Family } from '../clauses/catalogue.js';
import { selectionReason, type Selection } from '../clauses/selection.js';

/**
 * The suite files, a registry (test/suites-registered.test.ts keeps it complete). Where each runs
 * is `SUITE_PHASES`.
 */
export const SUITE_ORDER = [
  'key-pagination',
  'general',
  'resources',
  'pagination',
  'errors',
  'submissions',
  'auth',
  'keys',
  'rate-limits',
  'explorer',
  'pairs',
  'ip-limits',
  'after-writes',
  'run-wide',
] as const;

export type SuiteName = (typeof SUITE_ORDER)[number];

/**
 * Suites that run one step after another, beside the other lanes of their phase; the suites of one
 * step run beside each other.
 */
export interface Lane {
  readonly name: string;
  readonly steps: readonly (readonly SuiteName[])[];
}

/** A lane's suites, step by step. */
export function laneSuites(lane: Lane): readonly SuiteName[] {
  return lane.steps.flat();
}

/**
 * When each suite runs: the phases one after another; within a phase, its lanes beside each other
 * (their requests interleave), each lane's suites in order. Why this shape:
 *
 * - The API keys are walked first and alone: any suite may create a key (GEN-3 and the errors
 *   suite send odd bodies to every write, key creation included, and a target may accept one),
 *   and a walk must see a still list. The pool's keys are made before the checks start.
 * - The explorer (its key lifecycle and its header catalogue) comes after KEY in the keys lane: no
 *   other check creates or deletes keys between its steps, so that a sequence it draws is the
 *   order the target saw.
 * - The checks that wait (a second for a revoked key, a last-use time; the exhausted key's
 *   Retry-After, which begins there and RATE-5 awaits in the phase after) are in the keys lane:
 *   their waits overlap the account lane's work instead of adding to it. The keys lane comes
 *   first in its phase, so that its checks take their places among the checks vitest runs at
 *   once before the account lane's many short ones, and its waits begin as early as they can.
 *   KEY and the exhaustion of a key (rate-limits) run beside each other there: each makes keys
 *   of its own, neither walks the key list, and the exhaustion sends nothing without a valid key.
 *   AUTH comes first, alone: its requests without a key and KEY's revoked key would share the
 *   budget per IP address, which a target may count failed credentials against (the clause
 *   catalogue, RATE-7).
 * - The resources are read beside the general checks: they read no list the general checks'
 *   writes may add to (submissions, keys). Not in the keys lane: there their work delayed the
 *   waits' own requests where the keys lane is the longer (Node 22 and later).
 * - The account lane walks every other list before it writes submissions, and nothing beside it
 *   writes them.
 * - The pairs (every two things the run varies, crossed) have a phase of their own: they write
 *   submissions, which no walk may see change, and send failed credentials, which a target may
 *   count against the budget per IP address that KEY's revoked keys draw on beside them; before the
 *   limit per IP address, which counts them.
 * - The limit per IP address (ip-limits) has a phase of its own, after every request without a key
 *   or with a failed credential: RATE-7's burst then counts them, no check expecting a 401 meets the
 *   429s it provokes, and the only requests with a valid key in its window are its own, so that an
 *   early 429 tells whether they were counted. RATE-4 there sees every 429 of the run.
 * - after-writes walks the written lists once both lanes' writes are done (and the rate-limit
 *   suite's waits left the main key's budget whole); run-wide judges the whole log, so it is last.
 */
export const SUITE_PHASES: readonly (readonly Lane[])[] = [
  [{ name: 'keys listed', steps: [['key-pagination']] }],
  [
    { name: 'keys', steps: [['auth'], ['keys', 'rate-limits'], ['explorer']] },
    { name: 'account', steps: [['general', 'resources'], ['pagination'], ['errors'], ['submissions']] },
  ],
  [{ name: 'pairs', steps: [['pairs']] }],
  [{ name: 'limit per IP address', steps: [['ip-limits']] }],
  [{ name: 'after writes', steps: [['after-writes']] }],
  [{ name: 'run-wide', steps: [['run-wide']] }],
];

/**
 * The families whose clauses each suite file checks: one file a family, the API keys' pagination
 * apart, the written lists walked again, and the run-wide judges (test/suites-declare-clauses.test.ts
 * keeps this true).
 */
export const SUITE_FAMILIES: Readonly<Record<SuiteName, readonly Family[]>> = {
  general: ['GEN'],
  resources: ['RES'],
  pagination: ['PAG'],
  errors: ['ERR'],
  submissions: ['SUB'],
  'key-pagination': ['PAG'],
  auth: ['AUTH'],
  keys: ['KEY'],
  'rate-limits': ['RATE'],
  explorer: ['KEY', 'GEN', 'AUTH'],
  pairs: ['GEN', 'AUTH'],
  'ip-limits': ['RATE'],
  'after-writes': ['PAG', 'SUB', 'AUTH'],
  'run-wide': ['GEN', 'ERR', 'PAG', 'KEY', 'RATE', 'AUTH', 'RES', 'SUB'],
};

/**
 * The suites a run loads: those that may hold a clause the selection keeps. A file of which
 * `--only` or `--skip` leaves every check out would only load, collect and skip them, some half a
 * second of a short run; its clauses are still reported, left out by the selection
 * (src/verdict/verdict.ts).
 */
export function selectedSuites(selection: Selection): SuiteName[] {
  const kept = new Set(CLAUSE_IDS.filter((id) => selectionReason(id, selection) === null).map(familyOf));
  return SUITE_ORDER.filter((name) => SUITE_FAMILIES[name].some((family) => kept.has(family)));
}

/** `SUITE_PHASES` with only the selected suites: empty steps, lanes and phases dropped. */
export function selectedPhases(selection: Selection): Lane[][] {
  const kept = new Set(selectedSuites(selection));
  const steps = (lane: Lane) => lane.steps.map((step) => step.filter((name) => kept.has(name))).filter((step) => step.length > 0);
  return SUITE_PHASES.map((lanes) => lanes.map((lane) => ({ ...lane, steps: steps(lane) })).filter((lane) => lane.steps.length > 0)).filter(
    (lanes) => lanes.length > 0,
  );
}

/** A suite file's registry name: `suites/keys.suite.ts` is `keys`. */
export function suiteName(file: string): string {
  return basename(file).replace(/\.suite\.ts$/, '');
}
