import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { ConformanceError } from '../../errors.js';
import { readReportFile } from '../../report/baseline.js';
import type { ConformanceDocument } from '../../report/document.js';
import type { Command } from '../command.js';
import { runCommand } from './run.js';

/**
 * `conformance rerun REPORT.json [FLAGS]`: repeats the run a report describes: the same target,
 * the same profile content, seed, selection and flags. Secrets come from the environment as for
 * any run; flags given after the file override the report's. Reports go to `rerun/` beside the
 * report unless `--report-dir` says otherwise.
 */
export const rerunCommand: Command = async (args, io, parts) => {
  const [file, ...extra] = args;
  if (!file || file.startsWith('-')) throw new ConformanceError('CONF_SETTING_INVALID', 'usage: conformance rerun REPORT.json [--report-dir DIR]');
  const report = readReportFile(file, 'report');
  if (report.profile.content === null)
    throw new ConformanceError(
      'CONF_REPORT_INVALID',
      `${file} is the report of a run that stopped before it read a profile (${report.because}): there is no run to repeat`,
    );
  // The original report is evidence someone may hold: the rerun writes beside it, not over it.
  const reportDir = extra.some((a) => a === '--report-dir' || a.startsWith('--report-dir=')) ? [] : ['--report-dir', join(dirname(resolve(file)), 'rerun')];
  const argv = [...rerunArguments(report, writeProfile(report)), ...reportDir, ...extra];
  const headers = headerNames(report);
  if (headers.length > 0) io.out(`rerun: the report sent extra headers (${headers.join(', ')}): their values come from CONFORMANCE_EXTRA_HEADERS`);
  io.out(`rerun of ${file} (${report.verdict}, ${report.startedAt}): conformance ${argv.join(' ')}`);
  return runCommand(argv, io, parts);
};

/**
 * The profile exactly as the run read it: its text byte for byte (so that the rerun's profile
 * sha256 is the original's and `diff` sees only what changed on the target), under the original
 * file's name; a report of an earlier version, which kept only the parsed content, gets that.
 */
function writeProfile(report: ConformanceDocument): string {
  const name = basename(report.profile.source) || 'profile.json';
  const profileFile = join(mkdtempSync(join(tmpdir(), 'conformance-rerun-')), /^[\w.-]+$/.test(name) ? name : 'profile.json');
  writeFileSync(profileFile, typeof report.profile.text === 'string' ? report.profile.text : JSON.stringify(report.profile.content, null, 2));
  return profileFile;
}

/** The flags that repeat a report's run; an embedded target is started anew. */
export function rerunArguments(report: ConformanceDocument, profileFile: string): string[] {
  const settings = report.settings as {
    only?: string[];
    skip?: string[];
    strict?: boolean;
    requireComplete?: boolean;
    readOnly?: boolean;
    propertyRuns?: number | null;
    explore?: number | null;
    timeoutMs?: number;
    leaveKeys?: boolean;
    maxSubmissions?: number | null;
    certify?: boolean;
  };
  const argv: string[] = [];
  if (!report.target.embedded) argv.push('--base-url', report.target.baseUrl);
  argv.push('--profile', profileFile, '--seed', String(report.seed));
  if (settings.only?.length) argv.push('--only', settings.only.join(','));
  if (settings.skip?.length) argv.push('--skip', settings.skip.join(','));
  if (settings.strict) argv.push('--strict');
  if (settings.requireComplete) argv.push('--require-complete');
  if (settings.readOnly) argv.push('--read-only');
  if (settings.propertyRuns) argv.push('--property-runs', String(settings.propertyRuns));
  if (typeof settings.explore === 'number') argv.push('--explore', String(settings.explore));
  if (settings.leaveKeys) argv.push('--leave-keys');
  if (typeof settings.maxSubmissions === 'number') argv.push('--max-submissions', String(settings.maxSubmissions));
  if (settings.timeoutMs) argv.push('--timeout', String(settings.timeoutMs));
  // A certification is repeated as one: it needs a signing key again (--sign-key after the file, or
  // CONFORMANCE_SIGN_KEY), which no report carries.
  if (settings.certify) argv.push('--certify');
  return argv;
}

function headerNames(report: ConformanceDocument): string[] {
  const headers = (report.settings as { extraHeaders?: string[] }).extraHeaders ?? [];
  return headers.map((h) => h.split(':')[0]!.trim());
}
