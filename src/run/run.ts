import { randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { basename } from 'node:path';
import type { Vitest } from 'vitest/node';
import { Broker } from '../broker/broker.js';
import { serveBroker, type RunningBroker } from '../broker/channel.js';
import type { Settings } from '../config/settings.js';
import { ConformanceError } from '../errors.js';
import { bucketOfCredential, closeDispatcher, HttpClient } from '../http/client.js';
import { bucketOf } from '../http/request.js';
import { loadSigningKey, type SigningKey } from '../integrity/signing-key.js';
import type { Stopped } from '../report/document.js';
import { guardOutput } from '../secrets/leak-scan.js';
import { publishRun } from '../report/publish.js';
import { baselineExitCode, readReportFile } from '../report/baseline.js';
import { verdictLines } from '../report/terminal.js';
import { cleanupCreated } from './cleanup.js';
import { onInterrupt, SIGNAL_EXIT, type StopSignal } from './interrupt.js';
import type { RunContext } from '../check/run-context.js';
import { dryRunLines } from './dry-run.js';
import { declaredDeletion, probeConventionalDeletion, type KeyDeletion } from '../keys/deletion.js';
import { inferKeyPrefix } from '../keys/prefix.js';
import { createKeyPool } from '../keys/pool.js';
import { clockMarginMs } from '../pacing/margin.js';
import { checkId, planLine, planRun, remainingSeconds, scheduleRecord, type Schedule } from './schedule.js';
import type { CheckRecord } from '../check/outcome.js';
import { startHeartbeat, type Heartbeat } from './heartbeat.js';
import type { Output } from '../output.js';
import { preflight } from '../target/preflight.js';
import { publicSettings } from './public-settings.js';
import { newRunId } from './run-id.js';
import { certificationVerdict, checkProfileCertifiable } from '../verdict/certification.js';
import { runModeOf } from '../config/run-mode.js';
import type { RecordCollector, RunParts } from './parts.js';
import { runSuites } from './suites.js';
import { writeStoppedReport } from './stopped-report.js';
import { provisionalReport } from './provisional-report.js';
import { openTarget, type Target } from './target.js';
import { clauseResults, notRunCount, stoppedResults, verdictOf, type ClauseContext, type ClauseResult } from '../verdict/verdict.js';
import { CLAUSE_IDS } from '../clauses/catalogue.js';
import { probesDeletion } from './write-plan.js';
import { liveKeysLine } from './live-keys.js';

/**
 * Runs the whole suite once and returns the exit status (run interface, Verdict and exit status),
 * with the reporters and the embedded reference its composition root hands it (`parts`).
 */
export async function run(settings: Settings, io: Output, parts: RunParts): Promise<number> {
  const startedAt = new Date();
  const embedded = settings.baseUrl === null;
  // What the report of a run that stops early draws on, filled in as the run gets there.
  const state: {
    target: Target | null;
    broker: Broker | null;
    /** Drawn as the run starts: every report of it, the provisional one too, names it. */
    seed: number;
    notes: readonly string[];
    collector: RecordCollector | null;
    clauses: ClauseContext | null;
    signingKey: SigningKey | null;
    teardown: ((withinMs?: number) => Promise<unknown>) | null;
    /** The key path the run found by probing, which the cleanup command must be told. */
    foundKeyPath: string | null;
  } = {
    target: null,
    broker: null,
    seed: settings.seed ?? randomInt(2 ** 31 - 1),
    notes: [],
    collector: null,
    clauses: null,
    signingKey: null,
    teardown: null,
    foundKeyPath: null,
  };
  let served: RunningBroker | null = null;
  let running: Vitest | null = null;
  let heartbeat: Heartbeat | null = null;
  // The schedule, made once the preflight has seen the target's window and pace; the estimate counts down from it.
  let planned: { readonly plan: Schedule; readonly at: number; readonly sentBefore: number; buckets: readonly string[] } | null = null;
  const interrupt = onInterrupt(io, {
    onFirst: (signal) => {
      io.err(
        `${signal}: stopping the checks, then deleting the keys this run created (at most ${settings.teardownTimeoutMs / 1000} s; ${signal} again exits at once)`,
      );
      state.broker?.pacer.stop(`the run was interrupted by ${signal}`);
      void running?.cancelCurrentRun('keyboard-input');
    },
    onSecond: () => io.err(liveKeysLine(state.broker?.ledger.outstanding('api_key') ?? [], settings, state.foundKeyPath)),
  });
  const stopReport = (kind: Stopped['kind'], because: string, results: readonly ClauseResult[], signal?: StopSignal) => {
    // The run's own report replaces the provisional one, which is never written after it.
    if (kind !== 'unfinished') provisional.close();
    return writeStoppedReport({
      // The provisional report is replaced at the end: a CI page's summary gets the final one only.
      stepSummary: kind !== 'unfinished',
      settings,
      startedAt,
      kind,
      ...(signal ? { signal } : {}),
      because,
      results,
      baseUrl: state.target?.baseUrl ?? null,
      embedded,
      profile: state.target?.loaded ?? null,
      seed: state.seed,
      broker: state.broker,
      preflightNotes: state.notes,
      suiteFaults: state.collector?.suiteFaults ?? [],
      signingKey: state.signingKey,
    });
  };
  // A run killed outright leaves this report, written as the run starts and again as its ledger changes.
  const provisional = provisionalReport(() => {
    if (!settings.dryRun) stopReport('unfinished', 'the run did not finish', stoppedResults([], state.clauses, 'the run did not finish'));
  });
  /** A signal ended the run: the keys deleted within the teardown's bound, then a report that says so. */
  const interrupted = async (signal: StopSignal): Promise<number> => {
    const teardownStart = Date.now();
    // null: the teardown itself failed (the target went away); the keys then stay in the ledger.
    const torn = await state.teardown?.(settings.teardownTimeoutMs).catch(() => null);
    io.err(`teardown: ${Date.now() - teardownStart} ms (bound ${settings.teardownTimeoutMs / 1000} s)`);
    const outstanding = state.broker?.ledger.outstanding('api_key') ?? [];
    const results = stoppedResults(state.collector?.records ?? [], state.clauses, `the run was interrupted by ${signal}`, state.collector?.planned ?? null);
    // A key still live is marked `(key left)` by the document, as for any run.
    const because = `interrupted by ${signal} before the run could judge every clause`;
    const published = stopReport('interrupted', because, results, signal);
    io.err(`verdict: inconclusive: ${because}; ${notRunCount(results)} of ${CLAUSE_IDS.length} clauses not run`);
    if (outstanding.length > 0 || torn === null) io.err(liveKeysLine(outstanding, settings, state.foundKeyPath));
    io.out(`reports: ${published.files.join(', ')}`);
    return SIGNAL_EXIT[signal];
  };
  /** The target stopped answering (broker/outage.ts): torn down within its bound, inconclusive, at once. */
  const targetGone = async (why: string): Promise<number> => {
    io.err(`${why}: stopping the checks, then deleting the keys this run created (at most ${settings.teardownTimeoutMs / 1000} s)`);
    const torn = await state.teardown?.(settings.teardownTimeoutMs).catch(() => null);
    const outstanding = state.broker?.ledger.outstanding('api_key') ?? [];
    const results = stoppedResults(state.collector?.records ?? [], state.clauses, why, state.collector?.planned ?? null);
    const published = stopReport('target-gone', why, results);
    io.err(`verdict: inconclusive: ${why}; ${notRunCount(results)} of ${CLAUSE_IDS.length} clauses not run`);
    if (outstanding.length > 0 || torn === null) io.err(liveKeysLine(outstanding, settings, state.foundKeyPath));
    io.out(`reports: ${published.files.join(', ')}`);
    return 2;
  };

  try {
    // Read before anything starts: an unreadable baseline is a setting error (exit 2), not a late surprise.
    const baseline = settings.baselineFile ? readReportFile(settings.baselineFile, 'baseline') : null;
    // So is a signing key that cannot sign: the run would end with reports nobody can trust.
    state.signingKey = settings.signKey ? loadSigningKey(settings.signKey) : null;
    const signingKey = state.signingKey;
    const seed = state.seed;
    // A provisional report, replaced at the end: a run killed outright leaves one that says it did not finish.
    provisional.write();
    state.target = await openTarget(settings, parts.startEmbeddedTarget);
    const target = state.target;
    const { baseUrl, keys, loaded } = target;
    const profile = loaded.profile;
    // Before the first request: a certificate needs every MUST clause able to apply.
    if (settings.certify) checkProfileCertifiable({ profile, hasOtherAccountKey: keys.other !== null }, profile.name);
    provisional.write();
    const runId = newRunId(startedAt);
    const keyPrefix = profile.keyPrefix ?? inferKeyPrefix([keys.main, keys.other]);
    const broker = new Broker({
      keyPrefix,
      ledgerFile: settings.ledgerFile,
      // The configured key deletes the run's keys: its pacing keeps the teardown's requests back.
      teardownBucket: bucketOfCredential('main', keys),
      pacer: {
        perKey: profile.limits.perKeyPerMinute,
        anonymous: profile.limits.unauthenticatedPerMinute,
        windowMs: profile.limits.windowSeconds * 1000,
        marginMs: clockMarginMs(baseUrl),
      },
    });
    state.broker = broker;
    broker.ledger.watch(() => provisional.refresh());
    // Probes run only while the run waits and once the target answered; the timer does not hold the process.
    broker.watchTarget(baseUrl);
    if (interrupt.signal) broker.pacer.stop(`the run was interrupted by ${interrupt.signal}`);
    const guarded = guardOutput(io, broker.redactor);
    heartbeat = startHeartbeat({
      io: guarded,
      waits: () => broker.waits(),
      remainingS: () => (planned && state.collector ? remainingFor(planned, broker, state.collector.records) : null),
      live: process.stdout.isTTY && !process.env.CI ? (text: string) => void process.stdout.write(text) : null,
    });
    io = heartbeat.io;
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
    const teardownHttp = (withinMs: number) =>
      new HttpClient({
        baseUrl,
        keys,
        extraHeaders: settings.extraHeaders,
        timeoutMs: Math.min(settings.timeoutMs, withinMs),
        // Unpaced: the pacer kept these requests back (Broker teardownBucket). Yet another client on
        // the key (two CI jobs) may spend that reserve: the teardown at the end of a run, which has
        // no deadline, waits out a 429 as any request does; the one after a signal or a dead target,
        // bounded, does not, nor sends again what went unanswered.
        hooks: { acquire: async () => undefined, record: async (e, body) => void broker.record(e, body) },
        retry429: !Number.isFinite(withinMs),
        retryUnanswered: !Number.isFinite(withinMs),
        currentCheck: () => 'cleanup',
      });
    state.teardown = once((withinMs = Number.POSITIVE_INFINITY) => cleanupCreated(teardownHttp(withinMs), broker.ledger, profile, keyDeletion, io, withinMs));
    io.out(`conformance: ${baseUrl}${embedded ? ' (embedded reference server)' : ''}, profile "${profile.name}", seed ${seed}`);
    const checked = await preflight(http, profile, keys.other !== null);
    state.notes = checked.notes;
    for (const note of checked.notes) io.out(`  note: ${note}`);
    // The plan, made once: every later stage (the dry run, the pool, the checks' context, the estimate, the report) reads it.
    const { selection, propertyRuns, maxSubmissions, schedule: plan } = planRun(settings, profile, keys.other !== null, broker.log());
    const poolSize = plan.keys;
    planned = { plan, at: Date.now(), sentBefore: broker.log().length, buckets: [bucketOfCredential('main', keys)] };
    if (settings.dryRun) {
      const lines = dryRunLines({
        profile,
        selection,
        readOnly: settings.readOnly,
        hasOtherAccountKey: keys.other !== null,
        keys: poolSize,
        propertyRuns,
        maxSubmissions,
        deletionDeclared: keyDeletion.source === 'declared',
        leaveKeys: settings.leaveKeys,
        schedule: plan,
      });
      for (const line of lines) io.out(line);
      return 0;
    }

    if (probesDeletion({ deletionDeclared: keyDeletion.source === 'declared', leaveKeys: settings.leaveKeys, readOnly: settings.readOnly, selection })) {
      keyDeletion = await probeConventionalDeletion({ http, broker, profile, keyPrefix, runId, baseUrl });
      if (keyDeletion.source === 'conventional') state.foundKeyPath = keyDeletion.path;
      if (keyDeletion.noKeys) io.out(`  note: ${keyDeletion.noKeys}`);
      else if (keyDeletion.source === 'conventional')
        io.out(`  note: the profile declares no key path; keys the run creates are deleted at ${keyDeletion.path}, which revoked a probe key`);
    }

    const pool = await createKeyPool({ http, broker, profile, keyPrefix, keyDeletion, runId, baseUrl, size: poolSize });
    if (pool.note) io.out(`  note: ${pool.note}`);
    planned.buckets = [bucketOfCredential('main', keys), ...pool.keys.map((key) => bucketOf(`Bearer ${key}`))];
    io.out(`  ${planLine(plan)}`);

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
      selection,
      strict: settings.strict,
      readOnly: settings.readOnly,
      maxSubmissions,
      seed,
      propertyRuns,
      timeoutMs: settings.timeoutMs,
      preflight: checked,
    };
    const collector = parts.collector();
    state.collector = collector;
    state.clauses = { selection, profile, hasOtherAccountKey: keys.other !== null, readOnly: settings.readOnly };
    if (interrupt.signal) return await interrupted(interrupt.signal);
    mkdirSync(settings.reportDir, { recursive: true });
    const suites = runSuites({
      context,
      collector,
      reporters: parts,
      io,
      // Hands over the running vitest, so that a signal can stop it and clean up (interrupt.ts).
      onStart: (vitest) => {
        running = vitest;
        interrupt.claim();
        if (interrupt.signal) void vitest.cancelCurrentRun('keyboard-input');
      },
    });
    const gone = broker.outage.detected.then(() => null);
    const signal = await Promise.race([suites.then(() => interrupt.signal), interrupt.received, gone]);
    const outage = signal ? null : (broker.outage.outage ?? (await broker.outage.settle()));
    if (outage) void (running as Vitest | null)?.cancelCurrentRun('keyboard-input');
    if (signal || outage) {
      // The checks in flight get a moment to end (their waits were cut), never the whole teardown.
      // The grace's timer is cleared once they have: left pending, it kept the process alive for
      // its whole 2 s after the report was written, and the launcher's exit with it.
      let grace: NodeJS.Timeout | undefined;
      const graceOver = new Promise<void>((resolve) => (grace = setTimeout(resolve, Math.min(STOP_GRACE_MS, settings.teardownTimeoutMs / 4))));
      await Promise.race([suites.catch(() => undefined), graceOver]);
      clearTimeout(grace);
      return signal ? await interrupted(signal) : await targetGone(outage!.line);
    }
    process.exitCode = 0;
    await state.teardown();

    const results = clauseResults(collector.records, state.clauses);
    const clauses = state.clauses;
    provisional.close();
    const { document, verdict, published } = publishRun({
      document: {
        results,
        baseUrl,
        embedded,
        ...(target.note ? { targetNote: target.note } : {}),
        profile: loaded,
        mode: runModeOf(settings),
        argv: settings.argv,
        settings: publicSettings(settings),
        seed,
        startedAt,
        endedAt: new Date(),
        log: broker.log(),
        waitedMs: broker.pacer.waitedMs,
        schedule: scheduleRecord(planned.plan, planned.at - startedAt.getTime(), broker.log(), {
          main: bucketOfCredential('main', keys),
          pool: pool.keys.map((key) => bucketOf(`Bearer ${key}`)),
          other: keys.other !== null ? bucketOfCredential('other', keys) : null,
        }),
        ledger: broker.ledger.entries,
        preflightNotes: checked.notes,
      },
      suiteFaults: collector.suiteFaults,
      judge: (suiteFaults) => {
        const plain = verdictOf(results, { strict: settings.strict, requireComplete: settings.requireComplete, suiteFaults });
        return settings.certify ? certificationVerdict(plain, results, clauses) : plain;
      },
      redactor: broker.redactor,
      baseline: baseline ? { report: baseline, name: basename(settings.baselineFile!) } : null,
      dir: settings.reportDir,
      signingKey,
    });
    const leaked = [...published.leaked];
    if (guarded.leaks > 0) leaked.push('the console output');
    if (leaked.length > 0) {
      io.err(`SECRET LEAK: a secret was found and scrubbed in ${leaked.join(', ')}; the run is inconclusive`);
      return 2;
    }
    for (const line of verdictLines(document, published.files)) io.out(line);
    const left = broker.ledger.outstanding('api_key');
    if (left.length > 0) io.out(liveKeysLine(left, settings, state.foundKeyPath));
    // With a baseline, only a regression fails the gate: a known failure exits 0.
    return document.baseline ? baselineExitCode(verdict.exitCode, document.baseline, settings.requireComplete) : verdict.exitCode;
  } catch (error) {
    if (interrupt.signal) return await interrupted(interrupt.signal);
    if (error instanceof ConformanceError) {
      io.err(error.toLine());
      if (!settings.dryRun) {
        const kind = PREFLIGHT_CODES.has(error.code) ? 'preflight' : 'settings';
        const why = kind === 'preflight' ? 'the preflight stopped the run' : 'a setting is wrong';
        await state.teardown?.(settings.teardownTimeoutMs).catch(() => undefined);
        // The one line above is all the terminal says; the report folder says it for a CI page.
        stopReport(kind, error.toLine(), stoppedResults([], state.clauses, why));
      }
      return 2;
    }
    if (!settings.dryRun) {
      await state.teardown?.(settings.teardownTimeoutMs).catch(() => undefined);
      stopReport('suite-fault', `the suite itself broke: ${(error as Error)?.message ?? String(error)}`, stoppedResults([], state.clauses, 'the suite broke'));
    }
    throw error;
  } finally {
    provisional.close();
    interrupt.dispose();
    heartbeat?.stop();
    try {
      await state.teardown?.(settings.teardownTimeoutMs);
    } catch (error) {
      io.err(`cleanup failed: ${(error as Error).message}; \`conformance cleanup\` deletes what the ledger lists`);
    }
    await served?.close();
    await state.target?.reference?.close();
    await closeDispatcher();
  }
}

/** After a signal, how long the checks in flight may take to end before the teardown starts anyway. */
const STOP_GRACE_MS = 2000;

/** Errors of the preflight (the target, not the settings). */
const PREFLIGHT_CODES: ReadonlySet<string> = new Set(['CONF_TARGET_UNREACHABLE', 'CONF_TARGET_REDIRECTED', 'CONF_TARGET_NOT_API', 'CONF_KEY_REJECTED']);

/** The heartbeat's estimate: the schedule against the checks finished and where the main account's keys stand. */
function remainingFor(
  { plan, sentBefore, buckets }: { readonly plan: Schedule; readonly sentBefore: number; readonly buckets: readonly string[] },
  broker: Broker,
  records: readonly CheckRecord[],
): number {
  const now = Date.now();
  const standings = buckets.map((bucket) => broker.pacer.standing(bucket));
  const resetAt = standings[0]?.resetAt ?? null;
  return remainingSeconds(plan, {
    sent: broker.log().length - sentBefore,
    finished: new Map(records.map((r) => [checkId(r), Object.values(r.requests ?? {}).reduce((sum, n) => sum + (n ?? 0), 0)])),
    standing: { room: standings.reduce((sum, x) => sum + x.room, 0), untilResetS: resetAt === null ? null : Math.max(0, (resetAt - now) / 1000) },
    waitS: Math.max(0, ...broker.waits().map((w) => (w.until - now) / 1000)),
  });
}

/** Runs `fn` the first time only, with the arguments of that call; later calls get the same promise. */
function once<A extends unknown[], T>(fn: (...args: A) => Promise<T>): (...args: A) => Promise<T> {
  let done: Promise<T> | null = null;
  return (...args) => (done ??= fn(...args));
}
