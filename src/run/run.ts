import { randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Vitest } from 'vitest/node';
import { ConformanceReporter } from '../../reporters/conformance.js';
import { Broker } from '../broker/broker.js';
import { serveBroker, type RunningBroker } from '../broker/channel.js';
import { DEFAULT_MAX_SUBMISSIONS } from '../broker/submission-cap.js';
import { DEFAULT_MAX_KEYS, type Settings } from '../config/settings.js';
import { ConformanceError } from '../errors.js';
import { closeDispatcher, HttpClient } from '../http/client.js';
import { isLoopback } from '../http/loopback.js';
import { loadSigningKey } from '../integrity/signing-key.js';
import { MANIFEST_FILE, writeManifest } from '../integrity/manifest.js';
import { buildDocument } from '../report/document.js';
import { guardOutput, scrubReports } from '../report/leak-scan.js';
import { REPORT_FILES, writeReports } from '../report/write.js';
import { alteredOwnWords } from '../report/own-words.js';
import { baselineExitCode, compareReports, readReportFile } from '../report/baseline.js';
import { verdictLines } from '../report/terminal.js';
import { cleanupCreated } from './cleanup.js';
import { INTERRUPTED_EXIT, onInterrupt, type Interrupt } from './interrupt.js';
import type { RunContext } from './context.js';
import { dryRunLines } from './dry-run.js';
import { declaredDeletion, probeConventionalDeletion, type KeyDeletion } from '../keys/deletion.js';
import { inferKeyPrefix } from '../keys/prefix.js';
import { createKeyPool } from '../keys/pool.js';
import type { Profile } from '../profile/profile.js';
import { estimate, loadEstimates } from './estimates.js';
import { consoleOutput, type Output } from './output.js';
import { preflight } from './preflight.js';
import { newRunId } from './run-id.js';
import { runSuites } from './suites.js';
import { openTarget, type Target } from './target.js';
import { clauseResults, verdictOf } from './verdict.js';
import { CLAUSE_IDS, familyOf } from '../clauses/catalogue.js';
import { selectionReason, type Selection } from './selection.js';

/** Runs the whole suite once and returns the exit status (run interface, Verdict and exit status). */
export async function run(settings: Settings, io: Output = consoleOutput): Promise<number> {
  const startedAt = new Date();
  const embedded = settings.baseUrl === null;
  let target: Target | null = null;
  let served: RunningBroker | null = null;
  // Keys the run created are deleted whatever happens: checks failing, the target misbehaving,
  // the suite breaking, Ctrl-C. Set once there is something to clean up with.
  let cleanup: (() => Promise<unknown>) | null = null;
  let interrupt: Interrupt | null = null;
  try {
    // Read before anything starts: an unreadable baseline is a setting error (exit 2), not a late surprise.
    const baseline = settings.baselineFile ? readReportFile(settings.baselineFile, 'baseline') : null;
    // So is a signing key that cannot sign: the run would end with reports nobody can trust.
    const signingKey = settings.signKey ? loadSigningKey(settings.signKey) : null;
    target = await openTarget(settings);
    const { baseUrl, keys, loaded } = target;
    const profile = loaded.profile;
    const seed = settings.seed ?? randomInt(2 ** 31 - 1);
    const runId = newRunId(startedAt);
    const keyPrefix = profile.keyPrefix ?? inferKeyPrefix([keys.main, keys.other]);
    const broker = new Broker({
      keyPrefix,
      ledgerFile: settings.ledgerFile,
      pacer: {
        perKey: profile.limits.perKeyPerMinute,
        anonymous: profile.limits.unauthenticatedPerMinute,
        windowMs: profile.limits.windowSeconds * 1000,
        // A target on this machine shares its clock; a remote one may be a second apart.
        marginMs: isLoopback(baseUrl) ? 30 : 1000,
        // The broker names the bucket in words (`the main key`); `what` says what is awaited.
        onWait: (who, ms, what) =>
          io.out(
            `  … waiting ${Math.ceil(ms / 1000)} s for ${what ?? 'the rate-limit window'} (${who}), until ${new Date(Date.now() + ms).toISOString().slice(11, 19)} UTC`,
          ),
      },
    });
    const guarded = guardOutput(io, broker.redactor);
    io = guarded;
    broker.addConfiguredSecret(keys.main);
    broker.addConfiguredSecret(keys.other);
    for (const [, value] of settings.extraHeaders) broker.addConfiguredSecret(value);
    for (const form of signingKey?.secretForms ?? []) broker.redactor.add(form);
    served = await serveBroker(broker);

    const http = new HttpClient({
      baseUrl,
      keys,
      extraHeaders: settings.extraHeaders,
      timeoutMs: settings.timeoutMs,
      hooks: { acquire: (b, a) => broker.acquire(b, a), record: async (e, body) => void broker.record(e, body) },
      currentCheck: () => 'preflight',
    });
    let keyDeletion: KeyDeletion = declaredDeletion(profile, settings.leaveKeys) ?? {
      path: null,
      idMember: null,
      source: null,
      noKeys: null,
      leaveKeys: settings.leaveKeys,
    };
    cleanup = once(() => cleanupCreated(http, broker.ledger, profile, keyDeletion, io));
    io.out(`conformance: ${baseUrl}${embedded ? ' (embedded reference server)' : ''}, profile "${profile.name}", seed ${seed}`);
    const checked = await preflight(http, profile, keys.other !== null);
    for (const note of checked.notes) io.out(`  note: ${note}`);
    const propertyRuns = settings.propertyRuns ?? propertyBudget();
    const poolSize = poolSizeFor(settings, profile, keys.other !== null, embedded, propertyRuns);
    const maxSubmissions = settings.maxSubmissions ?? DEFAULT_MAX_SUBMISSIONS;
    if (settings.dryRun) {
      const lines = dryRunLines({
        profile,
        selection: { only: settings.only, skip: settings.skip },
        readOnly: settings.readOnly,
        hasOtherAccountKey: keys.other !== null,
        keys: poolSize,
        propertyRuns,
        maxSubmissions,
      });
      for (const line of lines) io.out(line);
      return 0;
    }

    if (keyDeletion.source === null && !settings.leaveKeys && !settings.readOnly && createsKeys({ only: settings.only, skip: settings.skip })) {
      keyDeletion = await probeConventionalDeletion({ http, broker, profile, keyPrefix, runId, baseUrl });
      if (keyDeletion.noKeys) io.out(`  note: ${keyDeletion.noKeys}`);
      else if (keyDeletion.source === 'conventional')
        io.out(`  note: the profile declares no key path; keys the run creates are deleted at ${keyDeletion.path}, which revoked a probe key`);
    }

    const pool = await createKeyPool({ http, broker, profile, keyPrefix, keyDeletion, runId, baseUrl, size: poolSize });
    if (pool.note) io.out(`  note: ${pool.note}`);

    const context: RunContext = {
      runId,
      baseUrl,
      embedded,
      keys,
      extraHeaders: settings.extraHeaders,
      profile,
      keyPrefix,
      keyDeletion,
      keyPool: pool.keys,
      broker: served.address,
      selection: { only: settings.only, skip: settings.skip },
      strict: settings.strict,
      readOnly: settings.readOnly,
      maxSubmissions,
      seed,
      propertyRuns,
      timeoutMs: settings.timeoutMs,
      preflight: checked,
    };
    const collector = new ConformanceReporter();
    mkdirSync(settings.reportDir, { recursive: true });
    const junitFile = join(settings.reportDir, REPORT_FILES.junit);
    let running: Vitest | null = null;
    interrupt = onInterrupt(io, () => running);
    await runSuites({
      context,
      collector,
      junitFile,
      io,
      // Hands over the running vitest, so that Ctrl-C can stop it and clean up (interrupt.ts).
      onStart: (vitest) => {
        running = vitest;
        interrupt?.claim();
      },
    });
    process.exitCode = 0;
    await cleanup();
    if (interrupt.interrupted) {
      const leakedOnStop = scrubReports(settings.reportDir, broker.redactor);
      if (leakedOnStop.length > 0 || guarded.leaks > 0)
        io.err(`SECRET LEAK: a secret was found and scrubbed in ${[...leakedOnStop, ...(guarded.leaks > 0 ? ['the console output'] : [])].join(', ')}`);
      io.err('interrupted: no verdict');
      return INTERRUPTED_EXIT;
    }

    const results = clauseResults(collector.records, {
      selection: context.selection,
      profile,
      hasOtherAccountKey: keys.other !== null,
      readOnly: settings.readOnly,
    });
    let verdict = verdictOf(results, { strict: settings.strict, requireComplete: settings.requireComplete, suiteFaults: collector.suiteFaults });
    const documentInput = {
      verdict,
      results,
      baseUrl,
      embedded,
      targetNote: target.note,
      profile: loaded,
      argv: settings.argv,
      settings: publicSettings(settings),
      seed,
      startedAt,
      endedAt: new Date(),
      log: broker.log(),
      waitedMs: broker.pacer.waitedMs,
      ledger: broker.ledger.entries,
      preflightNotes: checked.notes,
      suiteFaults: collector.suiteFaults,
      integrity: { manifest: MANIFEST_FILE, signed: signingKey !== null, publicKeyFingerprint: signingKey?.fingerprint ?? null },
    };
    let document = buildDocument(documentInput);
    // A report whose own words a redaction altered carries no verdict anyone may trust.
    const altered = alteredOwnWords(document, broker.redactor);
    if (altered) {
      const suiteFaults = [...collector.suiteFaults, altered];
      verdict = verdictOf(results, { strict: settings.strict, requireComplete: settings.requireComplete, suiteFaults });
      if (verdict.verdict !== 'inconclusive') verdict = { ...verdict, verdict: 'inconclusive', exitCode: 2, because: `the suite itself broke: ${altered}` };
      document = buildDocument({ ...documentInput, verdict, suiteFaults });
    }
    if (baseline) document.baseline = compareReports(baseline, document, settings.baselineFile!);
    const written = writeReports(document, settings.reportDir, broker.redactor, { stepSummary: process.env.GITHUB_STEP_SUMMARY || null });
    const leaked = scrubReports(settings.reportDir, broker.redactor);
    // Digests of the files as they stay: taken after the scan, which may have scrubbed one.
    const manifest = writeManifest(settings.reportDir, Object.values(REPORT_FILES), {
      suite: document.suite,
      document: readReportFile(join(settings.reportDir, REPORT_FILES.json), 'the report just written'),
      key: signingKey,
    });
    leaked.push(...scrubReports(settings.reportDir, broker.redactor, [MANIFEST_FILE]));
    if (guarded.leaks > 0) leaked.push('the console output');
    if (leaked.length > 0) {
      io.err(`SECRET LEAK: a secret was found and scrubbed in ${leaked.join(', ')}; the run is inconclusive`);
      return 2;
    }
    for (const line of verdictLines(document, [...written, junitFile, manifest])) io.out(line);
    // With a baseline, only a regression fails the gate: a known failure exits 0.
    return document.baseline ? baselineExitCode(verdict.exitCode, document.baseline) : verdict.exitCode;
  } catch (error) {
    if (error instanceof ConformanceError) {
      io.err(error.toLine());
      return 2;
    }
    throw error;
  } finally {
    interrupt?.dispose();
    try {
      await cleanup?.();
    } catch (error) {
      io.err(`cleanup failed: ${(error as Error).message}; \`conformance cleanup\` deletes what the ledger lists`);
    }
    await served?.close();
    await target?.reference?.close();
    await closeDispatcher();
  }
}

/** Families whose checks create keys. */
const KEY_CREATING_FAMILIES = new Set(['KEY', 'AUTH', 'RATE']);

/** Whether the selection runs any check that creates a key. */
function createsKeys(selection: Selection): boolean {
  return CLAUSE_IDS.some((id) => KEY_CREATING_FAMILIES.has(familyOf(id)) && selectionReason(id, selection) === null);
}

/** Runs `fn` the first time only; later calls get the same promise. */
function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let done: Promise<T> | null = null;
  return () => (done ??= fn());
}

/**
 * Generated cases per property: the same at any limits, so that a run against a deployment is as
 * strong as the local one (the key pool, not fewer cases, keeps it short). `--property-runs` sets
 * it otherwise.
 */
export function propertyBudget(): number {
  return FULL_STRENGTH_PROPERTY_RUNS;
}

const FULL_STRENGTH_PROPERTY_RUNS = 100;

/** The main key's share of the run would take longer than this at the declared limits: worth a pool. */
const POOL_WORTHWHILE_S = 60;

/**
 * Keys the run spreads its work over, the configured one included (1: no pool): as many as
 * `--max-keys` says, or by default DEFAULT_MAX_KEYS where one key would make the run slow: where
 * the main key's requests, at the declared limits, would take more than a minute, and against the
 * embedded reference, whose one-second windows pace a single key's thousand requests over ten
 * seconds that ten keys spend in one. Never for a read-only run. The pool itself is made only
 * where keys can be deleted (`keys/pool.ts`).
 */
function poolSizeFor(settings: Settings, profile: Profile, hasOtherAccountKey: boolean, embedded: boolean, propertyRuns: number): number {
  if (settings.readOnly) return 1;
  if (settings.maxKeys !== null) return settings.maxKeys;
  if (embedded) return DEFAULT_MAX_KEYS;
  const selection = { only: settings.only, skip: settings.skip };
  const main = estimate(loadEstimates(), { profile, selection, readOnly: false, hasOtherAccountKey }, 1, propertyRuns).requests.main;
  return (main / profile.limits.perKeyPerMinute) * profile.limits.windowSeconds > POOL_WORTHWHILE_S ? DEFAULT_MAX_KEYS : 1;
}

/** Settings as the report shows them: no secret, only whether one was given. */
function publicSettings(settings: Settings): Record<string, unknown> {
  return {
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey ? 'set' : 'unset',
    otherAccountApiKey: settings.otherAccountApiKey ? 'set' : 'unset',
    profile: settings.profileFile,
    reportDir: settings.reportDir,
    extraHeaders: settings.extraHeaders.map(([name]) => `${name}: [REDACTED]`),
    only: settings.only,
    skip: settings.skip,
    strict: settings.strict,
    requireComplete: settings.requireComplete,
    readOnly: settings.readOnly,
    leaveKeys: settings.leaveKeys,
    maxSubmissions: settings.maxSubmissions,
    propertyRuns: settings.propertyRuns,
    timeoutMs: settings.timeoutMs,
  };
}
