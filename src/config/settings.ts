import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import dotenv from 'dotenv';
import { ConformanceError } from '../errors.js';
import type { SigningKeySource } from '../integrity/signing-key.js';
import { checkCertifiable } from './run-mode.js';
import { parseSelectors } from '../clauses/selection.js';
import { MOST_EXPLORED } from '../check/explore-budget.js';

/** A run's settings, from flags, the environment and `.env` (run interface, "How a run is pointed at a target"). */
export interface Settings {
  /** null: start the embedded reference server. */
  readonly baseUrl: string | null;
  readonly apiKey: string | null;
  readonly otherAccountApiKey: string | null;
  /** null: the shipped reference profile for the embedded target, the document-only profile otherwise. */
  readonly profileFile: string | null;
  readonly reportDir: string;
  readonly extraHeaders: readonly (readonly [string, string])[];
  readonly only: readonly string[];
  readonly skip: readonly string[];
  readonly strict: boolean;
  readonly requireComplete: boolean;
  readonly readOnly: boolean;
  /** Create keys even where they cannot be deleted; the report names each one left. */
  readonly leaveKeys: boolean;
  /**
   * `--max-keys`: the most keys a run spreads its work over, the configured one included. Null:
   * not given, so DEFAULT_MAX_KEYS (`keys/pool-size.ts`) where one key would make the run slow.
   */
  readonly maxKeys: number | null;
  /** `--max-submissions`: the most submissions a run creates (they cannot be deleted). Null: not given, so DEFAULT_MAX_SUBMISSIONS. */
  readonly maxSubmissions: number | null;
  readonly dryRun: boolean;
  /** null: a fresh seed, printed so the run can be replayed. */
  readonly seed: number | null;
  /** null: chosen from the target's rate limit. */
  readonly propertyRuns: number | null;
  /** `--explore`: sequences the stateful explorer draws beyond its cover; null: `exploreBudget(propertyRuns)`. */
  readonly explore: number | null;
  /** Total deadline of one request. */
  readonly timeoutMs: number;
  /**
   * `--teardown-timeout` (seconds, as ms): after a signal, the bound on deleting the keys the run
   * created; it never waits for a rate-limit window. @default 10 s
   */
  readonly teardownTimeoutMs: number;
  /** Where the ledger of created resources is kept. */
  readonly ledgerFile: string;
  /** The command line as given, for the report. */
  readonly argv: readonly string[];
  /** A previous conformance.json: exit status and summary then speak of regressions. */
  readonly baselineFile: string | null;
  /** The Ed25519 key that signs `manifest.json`: a file (`--sign-key`, `CONFORMANCE_SIGN_KEY_FILE`) or the PEM in `CONFORMANCE_SIGN_KEY`; null: unsigned. */
  readonly signKey: SigningKeySource | null;
  /** `--certify`: the mode a certificate comes from; refuses every setting that narrows or weakens the run (`run-mode.ts`). */
  readonly certify: boolean;
}

/** Every flag of a run, as the parser takes them; `--help` describes each (`help.ts`). */
export const FLAGS = {
  'base-url': { type: 'string' },
  profile: { type: 'string' },
  'report-dir': { type: 'string' },
  header: { type: 'string', multiple: true },
  only: { type: 'string', multiple: true },
  skip: { type: 'string', multiple: true },
  strict: { type: 'boolean' },
  'require-complete': { type: 'boolean' },
  'read-only': { type: 'boolean' },
  'leave-keys': { type: 'boolean' },
  'max-keys': { type: 'string' },
  'max-submissions': { type: 'string' },
  'dry-run': { type: 'boolean' },
  seed: { type: 'string' },
  'property-runs': { type: 'string' },
  explore: { type: 'string' },
  timeout: { type: 'string' },
  'teardown-timeout': { type: 'string' },
  baseline: { type: 'string' },
  'sign-key': { type: 'string' },
  certify: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type FlagName = keyof typeof FLAGS;

/** Seconds a signalled run spends deleting its keys at most (k6's teardownTimeout, shorter: a CI runner kills about 10 s after its first signal). */
export const DEFAULT_TEARDOWN_S = 10;

/**
 * The shortest key the suite accepts. Redaction hides every run of 8 characters of a secret;
 * a shorter key (a placeholder such as `x`) would make it hide ordinary words of the output.
 */
export const MIN_KEY_LENGTH = 8;

export class HelpRequested extends Error {}

/**
 * Reads settings. Flags win over the environment; the environment wins over `.env`, which is
 * read from the working directory without overriding anything already set.
 */
export function readSettings(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Settings {
  const merged = { ...env };
  const dotenvFile = resolve(cwd, '.env');
  if (existsSync(dotenvFile)) dotenv.config({ path: dotenvFile, processEnv: merged, quiet: true, override: false });
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: FLAGS, allowPositionals: false, strict: true });
  } catch (error) {
    throw new ConformanceError('CONF_SETTING_INVALID', (error as Error).message.split('\n')[0]!);
  }
  const { values } = parsed;
  if (values.help) throw new HelpRequested();
  const baseUrl = baseUrlSetting(values['base-url'] ?? blankToNull(merged.CONFORMANCE_BASE_URL));
  const apiKey = keySetting('CONFORMANCE_API_KEY', blankToNull(merged.CONFORMANCE_API_KEY));
  if (baseUrl !== null && apiKey === null) {
    throw new ConformanceError('CONF_SETTING_INVALID', 'CONFORMANCE_API_KEY is not set: a target at a base URL needs the API key of the account under test');
  }
  const headerLines = [...(blankToNull(merged.CONFORMANCE_EXTRA_HEADERS)?.split(/\r?\n/) ?? []), ...(values.header ?? [])];
  const reportDir = resolve(cwd, values['report-dir'] ?? blankToNull(merged.CONFORMANCE_REPORT_DIR) ?? 'reports');
  const profile = values.profile ?? blankToNull(merged.CONFORMANCE_PROFILE);
  const settings: Settings = {
    baseUrl,
    apiKey,
    otherAccountApiKey: keySetting('CONFORMANCE_OTHER_ACCOUNT_API_KEY', blankToNull(merged.CONFORMANCE_OTHER_ACCOUNT_API_KEY)),
    profileFile: profile ? resolve(cwd, profile) : null,
    reportDir,
    extraHeaders: headerLines.filter((line) => line.trim() !== '').map(parseHeader),
    only: parseSelectors(values.only ?? [], '--only'),
    skip: parseSelectors(values.skip ?? [], '--skip'),
    strict: values.strict ?? false,
    requireComplete: values['require-complete'] ?? false,
    readOnly: values['read-only'] ?? false,
    leaveKeys: values['leave-keys'] ?? false,
    maxKeys: integerSetting('--max-keys / CONFORMANCE_MAX_KEYS', values['max-keys'] ?? blankToNull(merged.CONFORMANCE_MAX_KEYS), 1, 50),
    maxSubmissions: integerSetting(
      '--max-submissions / CONFORMANCE_MAX_SUBMISSIONS',
      values['max-submissions'] ?? blankToNull(merged.CONFORMANCE_MAX_SUBMISSIONS),
      0,
      10_000,
    ),
    dryRun: values['dry-run'] ?? false,
    seed: integerSetting('--seed / CONFORMANCE_SEED', values.seed ?? blankToNull(merged.CONFORMANCE_SEED), -(2 ** 31), 2 ** 31 - 1),
    propertyRuns: integerSetting('--property-runs', values['property-runs'] ?? null, 1, 100_000),
    explore: integerSetting('--explore', values.explore ?? null, 0, MOST_EXPLORED),
    timeoutMs: durationSetting('--timeout', values.timeout ?? null, 'ms', 100, 600_000) ?? 10_000,
    teardownTimeoutMs: durationSetting('--teardown-timeout', values['teardown-timeout'] ?? null, 's', 1000, 600_000) ?? DEFAULT_TEARDOWN_S * 1000,
    ledgerFile: resolve(reportDir, 'ledger.jsonl'),
    argv: [...argv],
    baselineFile: values.baseline ? resolve(cwd, values.baseline) : null,
    signKey: signKeySource(values['sign-key'] ?? null, merged, cwd),
    certify: values.certify ?? false,
  };
  checkCertifiable(settings);
  return settings;
}

/**
 * The report folder, read leniently (unknown flags and bad values ignored): where the report of a
 * run whose other settings are wrong still goes, so that a CI page shows why it stopped.
 */
export function reportDirOf(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  const merged = { ...env };
  const dotenvFile = resolve(cwd, '.env');
  if (existsSync(dotenvFile)) dotenv.config({ path: dotenvFile, processEnv: merged, quiet: true, override: false });
  let flag: string | undefined;
  try {
    const value = parseArgs({ args: [...argv], options: FLAGS, allowPositionals: true, strict: false }).values['report-dir'];
    flag = typeof value === 'string' ? value : undefined;
  } catch {
    flag = undefined;
  }
  return resolve(cwd, flag ?? blankToNull(merged.CONFORMANCE_REPORT_DIR) ?? 'reports');
}

/**
 * The settings of a run whose settings could not be read: defaults everywhere but the report
 * folder and the command line, for the report that says why the run did not start.
 */
export function unreadSettings(argv: readonly string[], reportDir: string): Settings {
  return {
    baseUrl: null,
    apiKey: null,
    otherAccountApiKey: null,
    profileFile: null,
    reportDir,
    extraHeaders: [],
    only: [],
    skip: [],
    strict: false,
    requireComplete: false,
    readOnly: false,
    leaveKeys: false,
    maxKeys: null,
    maxSubmissions: null,
    dryRun: false,
    seed: null,
    propertyRuns: null,
    explore: null,
    timeoutMs: 10_000,
    teardownTimeoutMs: DEFAULT_TEARDOWN_S * 1000,
    ledgerFile: resolve(reportDir, 'ledger.jsonl'),
    argv: [...argv],
    baselineFile: null,
    signKey: null,
    certify: false,
  };
}

/** A signing key is named by a file, or given whole in the environment; never as a flag's value. */
export function signKeySource(flag: string | null, env: NodeJS.ProcessEnv, cwd: string): SigningKeySource | null {
  const file = flag ?? blankToNull(env.CONFORMANCE_SIGN_KEY_FILE);
  const pem = blankToNull(env.CONFORMANCE_SIGN_KEY);
  if (file !== null && pem !== null)
    throw new ConformanceError(
      'CONF_SETTING_INVALID',
      'give the signing key once: CONFORMANCE_SIGN_KEY or a file (--sign-key, CONFORMANCE_SIGN_KEY_FILE), not both',
    );
  if (file !== null) return { file: resolve(cwd, file) };
  return pem === null ? null : { pem, from: 'CONFORMANCE_SIGN_KEY' };
}

function keySetting(name: string, value: string | null): string | null {
  if (value !== null && value.length < MIN_KEY_LENGTH) {
    throw new ConformanceError(
      'CONF_SETTING_INVALID',
      `${name} is ${value.length} character(s) long: a key of fewer than ${MIN_KEY_LENGTH} cannot be redacted safely (a placeholder?)`,
    );
  }
  return value;
}

function blankToNull(value: string | undefined): string | null {
  return value === undefined || value.trim() === '' ? null : value.trim();
}

function baseUrlSetting(raw: string | null): string | null {
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConformanceError('CONF_SETTING_INVALID', `base URL "${raw}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConformanceError('CONF_SETTING_INVALID', `base URL "${raw}" must be http or https`);
  }
  if (url.search || url.hash) throw new ConformanceError('CONF_SETTING_INVALID', `base URL "${raw}" must not carry a query or fragment`);
  // The document's paths all start with /api/v1/: a base URL that already ends in it is a common slip.
  if (/\/api\/v1\/?$/.test(url.pathname)) {
    throw new ConformanceError('CONF_SETTING_INVALID', `base URL "${raw}" ends in /api/v1: give the address without it`);
  }
  return url.toString().replace(/\/+$/, '');
}

function parseHeader(line: string): readonly [string, string] {
  const at = line.indexOf(':');
  const name = at > 0 ? line.slice(0, at).trim() : '';
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
    throw new ConformanceError('CONF_SETTING_INVALID', `extra header "${line}" is not "Name: value"`);
  }
  if (name.toLowerCase() === 'authorization') {
    throw new ConformanceError('CONF_SETTING_INVALID', 'extra headers cannot set Authorization: the key comes from CONFORMANCE_API_KEY');
  }
  return [name, line.slice(at + 1).trim()];
}

function integerSetting(name: string, raw: string | null, min: number, max: number): number | null {
  if (raw === null) return null;
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw.trim()) || value < min || value > max) {
    throw new ConformanceError('CONF_SETTING_INVALID', `${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

const DURATION_UNITS_MS = { ms: 1, s: 1000, m: 60_000 } as const;

/**
 * A duration in one spelling for every flag: a number and a unit (`10s`, `1500ms`, `2m`). A bare
 * number keeps the unit the flag had before units (`--timeout` milliseconds, `--teardown-timeout`
 * seconds), so that existing command lines mean what they meant. Returns milliseconds.
 */
export function durationSetting(name: string, raw: string | null, bareUnit: keyof typeof DURATION_UNITS_MS, minMs: number, maxMs: number): number | null {
  if (raw === null) return null;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(raw.trim());
  const ms = match ? Math.round(Number(match[1]) * DURATION_UNITS_MS[(match[2] as keyof typeof DURATION_UNITS_MS | undefined) ?? bareUnit]) : NaN;
  if (!(ms >= minMs && ms <= maxMs)) {
    throw new ConformanceError(
      'CONF_SETTING_INVALID',
      `${name} must be a duration from ${minMs / 1000}s to ${maxMs / 1000}s (10s, 1500ms, 2m; a bare number is ${bareUnit}), got "${raw}"`,
    );
  }
  return ms;
}
