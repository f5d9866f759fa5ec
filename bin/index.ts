/**
 * The kit: what a vendor may import from `api-v1-conformance` (package.json's `exports` name it built, `dist/js/bin/index.js`: bin/compiled.mjs).
 * Anything not exported here is internal and may change without notice. Like the CLI (`cli.ts`), it
 * composes the run with the parts outside src/ (`parts.ts`).
 */
import type { Settings } from '../src/config/settings.js';
import { consoleOutput, type Output } from '../src/output.js';
import { run as runWith } from '../src/run/run.js';
import { RUN_PARTS } from './parts.js';

/** Runs the whole suite once and returns the exit status (run interface, Verdict and exit status). */
export function run(settings: Settings, io: Output = consoleOutput): Promise<number> {
  return runWith(settings, io, RUN_PARTS);
}

export { propertyBudget } from '../src/check/property-budget.js';
export { readSettings, type Settings } from '../src/config/settings.js';
export { loadProfile, parseProfile, type LoadedProfile, type Profile } from '../src/profile/profile.js';
export { CLAUSES, CLAUSE_IDS, CATALOGUE_VERSION, FAMILIES } from '../src/clauses/catalogue.js';
export { ConformanceError, CONF_ERROR_CODES, type ConfErrorCode } from '../src/errors.js';
export { consoleOutput, type Output } from '../src/output.js';
export { schemaErrors, type SchemaName } from '../src/schemas.js';
export { verifyFolder, verified, type Verification, type SignatureState } from '../src/report/verify.js';
export { loadSigningKey, loadPublicKey, fingerprintOf, type SigningKey } from '../src/integrity/signing-key.js';
export { canonicalJson } from '../src/integrity/canonical-json.js';
export { readFleetFile, type Fleet, type Deployment } from '../src/fleet/fleet-file.js';
export { buildFleetReport } from '../src/fleet/fleet-report.js';
export { startReference, type ReferenceOptions, type RunningReference } from '../reference/server.js';
export { ConformanceReporter } from '../reporters/conformance.js';
export { ProgressReporter } from '../reporters/progress.js';
export type * from '../src/report-types.js';
