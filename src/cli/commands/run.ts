import { readSettings, reportDirOf, unreadSettings, type Settings } from '../../config/settings.js';
import { ConformanceError } from '../../errors.js';
import { run } from '../../run/run.js';
import { sliceSettings } from '../../run/slices.js';
import { writeStoppedReport } from '../../run/stopped-report.js';
import { stoppedResults } from '../../verdict/verdict.js';
import type { Command } from '../command.js';

/** `conformance [run]`: the whole suite against the target. */
export const runCommand: Command = (args, io, parts) => run(settingsOrReport(args), io, parts);

/**
 * The run's settings; when they are wrong, the report folder still gets a report that says so
 * (a CI job's test report and artifacts then show why it stopped), and the one line follows.
 */
function settingsOrReport(args: readonly string[]): Settings {
  try {
    return readSettings(args);
  } catch (error) {
    if (error instanceof ConformanceError && !args.includes('--dry-run')) {
      const settings = unreadSettings(args, reportDirOf(args));
      writeStoppedReport({
        report: sliceSettings(settings).report,
        startedAt: new Date(),
        kind: 'settings',
        because: error.toLine(),
        results: stoppedResults([], null, 'a setting is wrong'),
        baseUrl: null,
        embedded: false,
        profile: null,
        seed: null,
        broker: null,
      });
    }
    throw error;
  }
}
