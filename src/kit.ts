/**
 * The kit for suite authors: everything a file in `suites/` may import from the harness, and
 * nothing else (`test/import-rules.test.ts` holds suites to it). A check is
 * `check(id, title, async (t) => …)`; `t` (the `CheckContext`) carries the client, the findings
 * (`t.ensure`, `t.fail`), the outcomes that are not findings (`t.skip`, `t.notApplicable`,
 * `t.attempt`), properties, and the domain helpers that take a credential: `t.keys`, `t.budget`,
 * `t.lists`, `t.secrets`, `t.once`, `t.log()`.
 */

// Declaring checks and working in one.
export { check, type CheckOptions } from './check/check.js';
export { snippet, type Attempt, type CheckContext, type CheckSecrets, type PropertyOptions } from './check/context.js';
export type { CreatedKey, KeyListPage, UsableKey } from './check/keys.js';
export { idsOf, spread, type Envelope } from './check/lists.js';
export type { RunContext } from './run/context.js';
export type { ClauseId } from './clauses/catalogue.js';

// What requests and responses look like.
export type { Credential, HttpResponse } from './http/client.js';
export { describeRequest, type Exchange } from './http/exchange.js';
export { isLoopback } from './http/loopback.js';
export { KEY_CREATION_PATH, PROBE_PATH } from './keys/paths.js';
export { sleep } from './sleep.js';

// The target's collections and the document's shapes.
export { fillPath, type Profile } from './profile/profile.js';
export { schemaErrors, type SchemaName } from './schemas.js';
export { collections, COLLECTION_NAMES, type CollectionEndpoint, type CollectionName } from './target/collections.js';

// Judgements shared by several suites.
export { errorOf, hasValueAnywhere, isErrorEnvelope, type ErrorObject } from './judge/errors.js';
export { judgedBy, RESET_SKEW_SECONDS, RUN_WIDE_JUDGES, type RunWideClause } from './judge/run-wide.js';
export { rateHeaders, type RateHeaders } from './pacing/pacer.js';
