import { ConformanceError } from '../../errors.js';
import { compareReports, comparisonLines, readReportFile } from '../../report/baseline.js';
import type { Command } from '../command.js';

/**
 * `conformance diff OLD NEW`: what changed between two reports, as a run with `--baseline OLD`
 * says it. Exits 1 when NEW has a regression, so it can gate a pipeline on its own.
 */
export const diffCommand: Command = async (args, io) => {
  if (args.length !== 2 || args.some((a) => a.startsWith('-'))) {
    throw new ConformanceError('CONF_SETTING_INVALID', 'usage: conformance diff OLD.json NEW.json');
  }
  const [oldFile, newFile] = args as [string, string];
  const before = readReportFile(oldFile, 'old report');
  const after = readReportFile(newFile, 'new report');
  const comparison = compareReports(before, after, oldFile);
  io.out(`${newFile}: ${after.verdict}${after.complete ? '' : ' (incomplete)'}, ${after.startedAt}`);
  for (const line of comparisonLines(comparison)) io.out(line);
  return comparison.regressions.length > 0 ? 1 : 0;
};
