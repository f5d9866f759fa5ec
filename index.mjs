// The kit's entry (`import { run } from 'api-v1-conformance'`): the sources are TypeScript, run
// compiled ahead of time or through tsx as the CLI runs them (bin/compiled.mjs), so no build step
// stands between a change and a release. Its types are dist/types, which `prepack` builds.
import { importSource } from './bin/compiled.mjs';

const kit = await importSource('bin/index.ts');

export const {
  run,
  propertyBudget,
  readSettings,
  loadProfile,
  parseProfile,
  CLAUSES,
  CLAUSE_IDS,
  CATALOGUE_VERSION,
  FAMILIES,
  ConformanceError,
  CONF_ERROR_CODES,
  consoleOutput,
  schemaErrors,
  verifyFolder,
  verified,
  loadSigningKey,
  loadPublicKey,
  fingerprintOf,
  canonicalJson,
  readFleetFile,
  buildFleetReport,
  startReference,
  ConformanceReporter,
  ProgressReporter,
} = kit;
