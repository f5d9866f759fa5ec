import { ConformanceError } from '../../errors.js';
import { baselineExitCode, compareReports, comparisonLines, readReportFile } from '../../report/baseline.js';
import type { Command } from '../command.js';

/**
 * `conformance diff OLD NEW`: what changed between two reports, as a run with `--baseline OLD`
 * says it. Exits 1 when NEW has a regression (or, with `--require-complete`, a regression of
 * coverage), so it can gate a pipeline on its own.
 */
export const diffCommand: Command = async (args, io) => {
  const requireComplete = args.includes('--require-complete');
  const files = args.filter((a) => a !== '--require-complete');
  if (files.length !== 2 || files.some((a) => a.startsWith('-'))) {
    throw new ConformanceError('CONF_SETTING_INVALID', 'usage: conformance diff OLD.json NEW.json [--require-complete]');
  }
  const [oldFile, newFile] = files as [string, string];
  const before = readReportFile(oldFile, 'old report');
  const after = readReportFile(newFile, 'new report');
  const comparison = compareReports(before, after, oldFile);
  io.out(`${newFile}: ${after.verdict}${after.complete ? '' : ' (incomplete)'}, ${after.startedAt}`);
  for (const line of comparisonLines(comparison)) io.out(line);
  return baselineExitCode(0, comparison, requireComplete);
};
