/**
 * The kit for suite authors: everything a file in `suites/` may import from the harness, and
 * nothing else (`test/import-rules.test.ts` holds suites to it; helpers that also run outside vitest
 * import its judging half, `kit-judging.ts`, alone). A check is
 * `check(id, title, async (t) => …, { key, states, values })`, its key its stable name within the
 * clause (see `CheckOptions`); `t` (the `CheckContext`) carries the client, the findings
 * (`t.ensure`, `t.fail`), the outcomes that are not findings (`t.skip`, `t.notApplicable`,
 * `t.attempt`), properties, and the domain helpers that take a credential: `t.keys`, `t.budget`,
 * `t.lists`, `t.secrets`, `t.once`, `t.log()`, and `t.submissions` (the run's cap on created
 * submissions, and cases batched many to a submission within it).
 */

// Declaring checks and working in one.
export { BESIDE, check, keyBound, type CheckOptions, type KeyBound } from './check/check.js';
export { snippet, type CheckContext, type CheckSecrets, type PropertyOptions } from './check/context.js';
export type { Attempt } from './check/outcome.js';
export type { CreatedKey, KeyListPage, UsableKey } from './check/keys.js';
export type { RunContext } from './check/run-context.js';
export type { ClauseId } from './clauses/catalogue.js';

// Shapes, schemas and shared judgements: the half of the kit that loads without vitest.
export * from './kit-judging.js';
