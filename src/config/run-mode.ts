import { DEFAULT_MAX_SUBMISSIONS } from '../broker/submission-cap.js';
import { ConformanceError } from '../errors.js';
import { propertyBudget } from '../check/property-budget.js';
import { exploreBudget } from '../check/explore-budget.js';

/** What a report's header says the run was: a certification, or plainly what it is not (issue 26). */
export interface RunMode {
  readonly certification: boolean;
  /** `Certification run`, or `not a certification: --only GEN, 10 cases a property`. */
  readonly headline: string;
  /** Each way the run falls short of a certification run; empty for one. */
  readonly departures: readonly string[];
}

/**
 * The settings a run's mode is read from, as `Settings` holds them. Declared here rather than picked
 * from `Settings`: the settings check certifiability as they are read (`checkCertifiable`), and a
 * mode that imported their type back would tie the two files in a circle.
 */
export interface ModeSettings {
  readonly certify: boolean;
  readonly only: readonly string[];
  readonly skip: readonly string[];
  readonly readOnly: boolean;
  readonly propertyRuns: number | null;
  readonly explore: number | null;
  readonly leaveKeys: boolean;
  readonly maxSubmissions: number | null;
  /** Only whether one was given: an unsigned run is no certificate. */
  readonly signKey: unknown;
}

/**
 * Each setting that makes a run weaker than a certificate may claim: a narrowed selection, fewer
 * generated cases than the full budget, fewer sequences explored than the default, keys left on
 * the target, fewer submissions than the default allows, or no signature (an unsigned report
 * proves nothing of who made it).
 */
export function departuresOf(settings: ModeSettings): string[] {
  const out: string[] = [];
  if (settings.only.length > 0) out.push(`--only ${settings.only.join(',')}`);
  if (settings.skip.length > 0) out.push(`--skip ${settings.skip.join(',')}`);
  if (settings.readOnly) out.push('--read-only');
  if (settings.propertyRuns !== null && settings.propertyRuns < propertyBudget())
    out.push(`${settings.propertyRuns} case(s) a property (the full budget is ${propertyBudget()})`);
  const explored = exploreBudget(propertyBudget());
  if (settings.explore !== null && settings.explore < explored) out.push(`--explore ${settings.explore} (the default is ${explored})`);
  if (settings.leaveKeys) out.push('--leave-keys');
  if (settings.maxSubmissions !== null && settings.maxSubmissions < DEFAULT_MAX_SUBMISSIONS)
    out.push(`--max-submissions ${settings.maxSubmissions} (the default is ${DEFAULT_MAX_SUBMISSIONS})`);
  if (settings.signKey === null) out.push('unsigned');
  return out;
}

/** The mode a report states in its header. */
export function runModeOf(settings: ModeSettings): RunMode {
  const departures = departuresOf(settings);
  if (settings.certify) return { certification: true, headline: 'Certification run', departures };
  return { certification: false, headline: `not a certification: ${departures.length > 0 ? departures.join(', ') : 'run without --certify'}`, departures };
}

/** `--certify` refuses every setting that would make its certificate claim more than the run did (exit 2, one line). */
export function checkCertifiable(settings: ModeSettings): void {
  if (!settings.certify) return;
  const departures = departuresOf(settings).map((d) => (d === 'unsigned' ? 'an unsigned run (give --sign-key or CONFORMANCE_SIGN_KEY)' : d));
  if (departures.length > 0)
    throw new ConformanceError('CONF_SETTING_INVALID', `--certify refuses ${departures.join(', ')}: a certificate comes from a full, signed run`);
}
