/**
 * The half of the kit that judges and needs no test runner: what requests, responses and the
 * document's shapes look like, and the judgements several suites share. `kit.ts` re-exports all
 * of it. Helpers in `suites/support/` that also run outside vitest (the benchmarks walk with
 * `walk.ts`) import this face, so that a benchmark's process does not load vitest (about 25 MB)
 * to walk a collection; `test/import-rules.test.ts` holds it to reaching no test runner.
 */

// What requests and responses look like.
export type { Credential, HttpResponse } from './http/client.js';
export { apiPathOf } from './http/api-path.js';
export { createdAt, describeRequest, endedAt, failedCredential, fromApi, type Exchange } from './http/exchange.js';
export { HTTP_ANSWERS, httpAnswerOf, isHttpAnswer, owesJsonBody, type HttpAnswer, type HttpAnswerRule } from './http/http-answers.js';
export { isLoopback } from './http/loopback.js';
export { trustedPeer } from './http/trusted-peer.js';
export { KEY_CREATION_PATH, PROBE_PATH } from './keys/paths.js';
export { KEY_PROPAGATION_MS } from './keys/identify.js';
export { deletedKeys } from './keys/deleted-keys.js';
export { SUBMISSION_CREATION_PATH } from './broker/submission-cap.js';
export { sleep } from './sleep.js';
export { suiteNow } from './clock.js';

// The target's collections and the document's shapes.
export { idsOf, spread, type Envelope } from './check/lists.js';
export { fillPath, type Profile } from './profile/profile.js';
export { profileFact } from './profile/profile-fact.js';
export { schemaErrors, type SchemaName } from './schemas.js';
export { collections, COLLECTION_NAMES, type CollectionEndpoint, type CollectionName } from './target/collections.js';

// Judgements shared by several suites.
export { errorOf, hasValueAnywhere, isErrorEnvelope, type ErrorObject } from './judge/errors.js';
export { isJsonMediaType, judgedBy, RUN_WIDE_JUDGES, type RunWideClause } from './judge/run-wide.js';
export { RESET_SKEW_SECONDS, rateHeaders, type RateHeaders } from './http/rate-headers.js';
export { dateOf, ServerClock, serverClockOf, serverTimeOf, type ClockEstimate } from './http/server-clock.js';
export { RESET_MARGIN_SECONDS } from './http/reset-reading.js';
export { leakingTexts } from './secrets/chance.js';
