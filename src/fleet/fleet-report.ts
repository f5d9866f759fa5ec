import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CLAUSE_IDS, CLAUSES, familyOf, type ClauseId, type Family, type Level } from '../clauses/catalogue.js';
import { sha256 } from '../integrity/digest.js';
import { MANIFEST_FILE } from '../integrity/manifest.js';
import { readReportFile } from '../report/baseline.js';
import type { ConformanceDocument } from '../report/document.js';
import { REPORT_FILES } from '../report/write.js';
import { EXIT_CODES, type ClauseStatus, type Verdict } from '../verdict/verdict.js';

export const FLEET_FORMAT = 'api-v1-conformance-fleet';
export const FLEET_FILES = { json: 'fleet.json', html: 'fleet.html', markdown: 'fleet.md' } as const;

/** One deployment's row of the fleet report. */
export interface FleetDeployment {
  readonly name: string;
  readonly baseUrl: string | null;
  /** inconclusive also when the run wrote no report. */
  readonly verdict: Verdict;
  readonly complete: boolean;
  readonly exitCode: number;
  /** The deployment's report folder, relative to the fleet report. */
  readonly reportDir: string;
  readonly durationMs: number | null;
  /** Why there is no verdict: the run's own line. */
  readonly problem: string | null;
  /** SHA-256 of the deployment's manifest.json: binds the fleet report to those exact reports. */
  readonly manifestSha256: string | null;
  /** The fingerprint of the key that signed the deployment's manifest, null when unsigned. */
  readonly signedBy: string | null;
}

/** One clause across the fleet. */
export interface FleetClause {
  readonly id: ClauseId;
  readonly level: Level;
  readonly family: Family;
  readonly summary: string;
  /** By deployment name; null where the deployment has no report. */
  readonly statuses: Readonly<Record<string, ClauseStatus | null>>;
  /** The deployments do not all agree (among those with a report). */
  readonly disagree: boolean;
  /** Where they disagree: the deployments away from the most common status. */
  readonly outliers: readonly string[];
}

/** `fleet.json`: deployments × clauses, the disagreements first. */
export interface FleetReport {
  readonly format: typeof FLEET_FORMAT;
  readonly formatVersion: 1;
  readonly name: string;
  readonly startedAt: string;
  readonly endedAt: string;
  /** The worst of the deployments' verdicts, and its exit status. */
  readonly verdict: Verdict;
  /** Every deployment's run was complete: otherwise the headline says `(incomplete)`, the worst qualifier of the fleet. */
  readonly complete: boolean;
  readonly exitCode: 0 | 1 | 2;
  readonly deployments: readonly FleetDeployment[];
  /** Every clause of the catalogue, those on which deployments disagree first. */
  readonly clauses: readonly FleetClause[];
}

/** What the fleet knows of one deployment once its run is over (or, merged, its folder). */
export interface DeploymentResult {
  readonly name: string;
  readonly dir: string;
  readonly exitCode: number | null;
  readonly durationMs: number | null;
  readonly problem: string | null;
}

const VERDICT_OF_EXIT: Record<0 | 1 | 2, Verdict> = { 0: 'conformant', 1: 'non-conformant', 2: 'inconclusive' };

/** Builds the fleet report from each deployment's folder; `out` is where the report goes. */
export function buildFleetReport(name: string, results: readonly DeploymentResult[], out: string, startedAt: Date): FleetReport {
  const reports = new Map<string, ConformanceDocument>();
  const deployments = results.map((r): FleetDeployment => {
    const file = join(r.dir, REPORT_FILES.json);
    let report: ConformanceDocument | null = null;
    let problem = r.problem;
    if (existsSync(file) && (r.exitCode === null || r.exitCode <= 1)) {
      try {
        report = readReportFile(file);
      } catch (error) {
        problem = (error as Error).message;
      }
    }
    if (report) reports.set(r.name, report);
    const manifestFile = join(r.dir, MANIFEST_FILE);
    const manifest = existsSync(manifestFile) ? readFileSync(manifestFile) : null;
    const verdict = report?.verdict ?? 'inconclusive';
    return {
      name: r.name,
      baseUrl: report?.target.baseUrl ?? null,
      verdict,
      complete: report?.complete ?? false,
      exitCode: r.exitCode ?? EXIT_CODES[verdict],
      reportDir: relative(out, r.dir) || '.',
      durationMs: r.durationMs ?? report?.durationMs ?? null,
      problem: report ? null : (problem ?? 'no report'),
      manifestSha256: manifest ? sha256(manifest) : null,
      signedBy: report?.integrity?.publicKeyFingerprint ?? null,
    };
  });
  const clauses = CLAUSE_IDS.map((id): FleetClause => {
    const statuses = Object.fromEntries(deployments.map((d) => [d.name, reports.get(d.name)?.clauses.find((c) => c.id === id)?.status ?? null]));
    const present = Object.entries(statuses).filter((e): e is [string, ClauseStatus] => e[1] !== null);
    const tally = new Map<ClauseStatus, number>();
    for (const [, s] of present) tally.set(s, (tally.get(s) ?? 0) + 1);
    const common = [...tally].sort((a, b) => b[1] - a[1])[0]?.[0];
    const disagree = tally.size > 1;
    const def = { ...CLAUSES[id], family: familyOf(id) };
    return {
      id,
      level: def.level,
      family: def.family,
      summary: def.summary,
      statuses,
      disagree,
      outliers: disagree ? present.filter(([, s]) => s !== common).map(([n]) => n) : [],
    };
  });
  // Disagreements first, those where someone fails first among them; the catalogue's order otherwise.
  const rank = (c: FleetClause) => (c.disagree ? (Object.values(c.statuses).some((s) => s === 'fail' || s === 'error') ? 0 : 1) : 2);
  const ordered = clauses
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i)
    .map(({ c }) => c);
  // The worst verdict decides; a run that ended otherwise than 0, 1 or 2 (killed, say) is inconclusive.
  const exitCode = Math.max(...deployments.map((d) => Math.max(EXIT_CODES[d.verdict], d.exitCode > 2 || d.exitCode < 0 ? 2 : d.exitCode))) as 0 | 1 | 2;
  return {
    format: FLEET_FORMAT,
    formatVersion: 1,
    name,
    startedAt: startedAt.toISOString(),
    endedAt: new Date().toISOString(),
    verdict: VERDICT_OF_EXIT[exitCode],
    complete: deployments.every((d) => d.complete),
    exitCode,
    deployments,
    clauses: ordered,
  };
}

/** The fleet's verdict with the worst qualifier of its deployments: `conformant (incomplete)`. */
export function fleetHeadline(report: Pick<FleetReport, 'verdict' | 'complete'>): string {
  return `${report.verdict}${report.complete === false ? ' (incomplete)' : ''}`;
}
