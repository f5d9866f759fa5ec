import { runModeOf, type RunMode } from '../config/run-mode.js';
import type { Settings } from '../config/settings.js';
import { publicSettings } from './public-settings.js';

/**
 * What the reports of a run say of its settings and where they go, read once: the final report's
 * and those of a run that stops early (`stopped-report.ts`), and the cleanup command they print.
 */
export interface ReportSlice {
  readonly reportDir: string;
  readonly argv: readonly string[];
  readonly mode: RunMode;
  /** The settings as a report shows them: no secret (`public-settings.ts`). */
  readonly shown: Record<string, unknown>;
  /** The configured base URL; null for the embedded reference. */
  readonly baseUrl: string | null;
  readonly profileFile: string | null;
  /** The seed given, for a report written before the run drew one. */
  readonly seed: number | null;
  /** The secrets the settings hold (keys, extra headers' values): what a report written before the broker redacts. */
  readonly secrets: readonly string[];
}

/**
 * The settings in the parts each stage of a run uses (`run.ts`), each a narrow type: no stage
 * below `run()` takes the whole settings, so that a change to one setting reaches only the stages
 * that read it.
 */
export interface RunSlices {
  /** The start (`stages/settings.ts`): the seed given, the files read before the first request. */
  readonly start: Pick<Settings, 'seed' | 'baselineFile' | 'signKey'>;
  /** The stop paths (`stops.ts`): the teardown's bound, whether anything is written, the reports'. */
  readonly stops: { readonly teardownTimeoutMs: number; readonly dryRun: boolean; readonly report: ReportSlice };
  /** The target (`target.ts`): where, with which keys and profile, for a certificate or not. */
  readonly target: Pick<Settings, 'baseUrl' | 'apiKey' | 'otherAccountApiKey' | 'profileFile' | 'certify'>;
  /** What every request of the run carries: the extra headers, the deadline. */
  readonly requests: Pick<Settings, 'extraHeaders' | 'timeoutMs'>;
  /** The plan's inputs (`stages/plan.ts`), and whether the checks run at all. */
  readonly plan: Pick<
    Settings,
    'only' | 'skip' | 'readOnly' | 'maxKeys' | 'propertyRuns' | 'explore' | 'maxSubmissions' | 'leaveKeys' | 'strict' | 'requireComplete' | 'certify' | 'dryRun'
  >;
  /** The teardown and the ledger (`teardown.ts`, `broker/ledger.ts`). */
  readonly teardown: Pick<Settings, 'teardownTimeoutMs' | 'leaveKeys' | 'ledgerFile'>;
  readonly report: ReportSlice;
}

function pick<K extends keyof Settings>(settings: Settings, keys: readonly K[]): Pick<Settings, K> {
  return Object.fromEntries(keys.map((key) => [key, settings[key]])) as Pick<Settings, K>;
}

export function sliceSettings(settings: Settings): RunSlices {
  const report: ReportSlice = {
    reportDir: settings.reportDir,
    argv: settings.argv,
    mode: runModeOf(settings),
    shown: publicSettings(settings),
    baseUrl: settings.baseUrl,
    profileFile: settings.profileFile,
    seed: settings.seed,
    secrets: [settings.apiKey, settings.otherAccountApiKey, ...settings.extraHeaders.map(([, value]) => value)].filter((s): s is string => s !== null),
  };
  return {
    start: pick(settings, ['seed', 'baselineFile', 'signKey']),
    stops: { teardownTimeoutMs: settings.teardownTimeoutMs, dryRun: settings.dryRun, report },
    target: pick(settings, ['baseUrl', 'apiKey', 'otherAccountApiKey', 'profileFile', 'certify']),
    requests: pick(settings, ['extraHeaders', 'timeoutMs']),
    plan: pick(settings, [
      'only',
      'skip',
      'readOnly',
      'maxKeys',
      'propertyRuns',
      'explore',
      'maxSubmissions',
      'leaveKeys',
      'strict',
      'requireComplete',
      'certify',
      'dryRun',
    ]),
    teardown: pick(settings, ['teardownTimeoutMs', 'leaveKeys', 'ledgerFile']),
    report,
  };
}
