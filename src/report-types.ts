/**
 * The report formats as types, for whoever reads the files a run writes (`api-v1-conformance/report`):
 * `conformance.json`, `manifest.json`, `fleet.json`. Their JSON Schemas are `api-v1-conformance/schemas/*.json`.
 */
export type { ConformanceDocument, Integrity } from './report/document.js';
export type { ClauseChange, Comparison } from './report/comparison.js';
export type { ClauseResult, ClauseStatus, Verdict } from './verdict/verdict.js';
export type { CheckRecord, CheckStatus, Reproduction } from './check/outcome.js';
export type { Exchange } from './http/exchange.js';
export type { ClauseId, Family, Level } from './clauses/catalogue.js';
export type { Manifest, ManifestEvidence, ManifestFile, ManifestSignature } from './integrity/manifest.js';
export type { FleetClause, FleetDeployment, FleetReport } from './fleet/fleet-report.js';
export type { FleetFile } from './fleet/fleet-file.js';
