/**
 * The kit: what a vendor may import from `api-v1-conformance` (package.json's `exports` name it built, `dist/js/src/index.js`: bin/compiled.mjs).
 * Anything not exported here is internal and may change without notice.
 */
export { run, propertyBudget } from './run/run.js';
export { readSettings, type Settings } from './config/settings.js';
export { loadProfile, parseProfile, type LoadedProfile, type Profile } from './profile/profile.js';
export { CLAUSES, CLAUSE_IDS, CATALOGUE_VERSION, FAMILIES } from './clauses/catalogue.js';
export { ConformanceError, CONF_ERROR_CODES, type ConfErrorCode } from './errors.js';
export { consoleOutput, type Output } from './run/output.js';
export { schemaErrors, type SchemaName } from './schemas.js';
export { verifyFolder, verified, type Verification, type SignatureState } from './integrity/verify.js';
export { loadSigningKey, loadPublicKey, fingerprintOf, type SigningKey } from './integrity/signing-key.js';
export { canonicalJson } from './integrity/canonical-json.js';
export { readFleetFile, type Fleet, type Deployment } from './fleet/fleet-file.js';
export { buildFleetReport } from './fleet/fleet-report.js';
export { startReference, type ReferenceOptions, type RunningReference } from '../reference/server.js';
export { ConformanceReporter } from '../reporters/conformance.js';
export { ProgressReporter } from '../reporters/progress.js';
export type * from './report/types.js';
