import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startVitest } from 'vitest/node';
import { ConformanceReporter } from '../../reporters/conformance.js';
import { ProgressReporter } from '../../reporters/progress.js';
import { REFERENCE_PROFILE_FILE, startReference, type RunningReference } from '../../reference/server.js';
import { Broker } from '../broker/broker.js';
import { serveBroker, type RunningBroker } from '../broker/server.js';
import type { Settings } from '../config/settings.js';
import { ConformanceError } from '../errors.js';
import { closeDispatcher, HttpClient } from '../http/client.js';
import { loadProfile, profileFromObject, type LoadedProfile } from '../profile/profile.js';
import { buildDocument } from '../report/document.js';
import { scrubReports } from '../report/leak-scan.js';
import { writeReports } from '../report/write.js';
import { cleanupCreated } from './cleanup.js';
import type { RunContext } from './context.js';
import { preflight } from './preflight.js';
import { SuiteOrder } from './suite-order.js';
import { clauseResults, verdictOf } from './verdict.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DOCUMENT_PROFILE_FILE = join(ROOT, 'profiles/document.json');

/** The embedded reference runs a short window so that a local run takes seconds, not minutes. */
export const EMBEDDED_WINDOW_SECONDS = 1;

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export const consoleOutput: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Runs the whole suite once and returns the exit status (profile.md, Verdict and exit status). */
export async function run(settings: Settings, io: Output = consoleOutput): Promise<number> {
  const startedAt = new Date();
  const embedded = settings.baseUrl === null;
  let reference: RunningReference | null = null;
  let served: RunningBroker | null = null;
  try {
    let loaded = loadProfile(settings.profileFile ?? (embedded ? REFERENCE_PROFILE_FILE : DOCUMENT_PROFILE_FILE));
    let baseUrl: string;
    let keys: { main: string; other: string | null };
    let targetNote: string | undefined;
    if (embedded) {
      reference = await startReference({ profile: loaded.profile, windowSeconds: EMBEDDED_WINDOW_SECONDS });
      loaded = embeddedProfile(loaded, reference);
      baseUrl = reference.url;
      keys = reference.keys;
      targetNote = `embedded reference server, rate-limit window of ${EMBEDDED_WINDOW_SECONDS} s instead of the document's minute`;
    } else {
      baseUrl = settings.baseUrl!;
      keys = { main: settings.apiKey!, other: settings.otherAccountApiKey };
    }
    const profile = loaded.profile;
    const seed = settings.seed ?? randomInt(2 ** 31 - 1);
    const runId = `${startedAt.toISOString().replace(/[-:]/g, '').slice(0, 15)}-${randomBytes(3).toString('hex')}`;
    const broker = new Broker({
      keyPrefix: profile.keyPrefix,
      ledgerFile: settings.ledgerFile,
      pacer: {
        perKey: profile.limits.perKeyPerMinute,
        anonymous: profile.limits.unauthenticatedPerMinute,
        windowMs: profile.limits.windowSeconds * 1000,
        // A target on this machine shares its clock; a remote one may be a second apart.
        marginMs: isLoopback(baseUrl) ? 30 : 1000,
        onWait: (bucket, ms) => io.out(`  … waiting ${Math.ceil(ms / 1000)} s for the rate-limit window (${bucket === 'anonymous' ? 'requests without a key' : 'a key'})`),
      },
    });
    broker.addConfiguredSecret(keys.main);
    broker.addConfiguredSecret(keys.other);
    for (const [, value] of settings.extraHeaders) broker.addConfiguredSecret(value);
    served = await serveBroker(broker);

    const http = new HttpClient({
      baseUrl,
      keys,
      extraHeaders: settings.extraHeaders,
      timeoutMs: settings.timeoutMs,
      hooks: { acquire: (b, a) => broker.acquire(b, a), record: async (e, body) => void broker.record(e, body) },
      currentCheck: () => 'preflight',
    });
    io.out(`conformance: ${baseUrl}${embedded ? ' (embedded reference server)' : ''}, profile "${profile.name}", seed ${seed}`);
    const checked = await preflight(http, profile, keys.other !== null);
    for (const note of checked.notes) io.out(`  note: ${note}`);

    const context: RunContext = {
      runId,
      baseUrl,
      embedded,
      keys,
      extraHeaders: settings.extraHeaders,
      profile,
      broker: served.address,
      selection: { only: settings.only, skip: settings.skip },
      strict: settings.strict,
      readOnly: settings.readOnly,
      seed,
      propertyRuns: settings.propertyRuns ?? propertyBudget(profile.limits),
      timeoutMs: settings.timeoutMs,
      preflight: checked,
    };
    const collector = new ConformanceReporter();
    mkdirSync(settings.reportDir, { recursive: true });
    const junitFile = join(settings.reportDir, 'junit.xml');
    const vitest = await startVitest(
      'test',
      [],
      {
        root: ROOT,
        config: false,
        watch: false,
        include: ['suites/**/*.suite.ts'],
        reporters: [collector, new ProgressReporter(io.out), 'junit'],
        outputFile: { junit: junitFile },
        provide: { conformance: context },
        fileParallelism: false,
        sequence: { sequencer: SuiteOrder },
        passWithNoTests: true,
      },
      { logLevel: 'error', cacheDir: join(ROOT, 'node_modules/.vite-conformance') },
    );
    await vitest.close();
    process.exitCode = 0;
    await cleanupCreated(http, broker.ledger, profile, io);

    const results = clauseResults(collector.records, {
      selection: context.selection,
      profile,
      hasOtherAccountKey: keys.other !== null,
      readOnly: settings.readOnly,
    });
    const verdict = verdictOf(results, { strict: settings.strict, requireComplete: settings.requireComplete, suiteFaults: collector.suiteFaults });
    const document = buildDocument({
      verdict,
      results,
      baseUrl,
      embedded,
      targetNote,
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
    });
    const written = writeReports(document, settings.reportDir, broker.redactor);
    const leaked = scrubReports(settings.reportDir, broker.redactor);
    if (leaked.length > 0) {
      io.err(`SECRET LEAK: a secret was found and scrubbed in ${leaked.join(', ')}; the run is inconclusive`);
      return 2;
    }
    const counts = document.counts;
    io.out(
      `verdict: ${verdict.verdict}${verdict.complete ? '' : ' (incomplete)'}: ${verdict.because}. ` +
        `MUST ${counts.MUST.pass} pass, ${counts.MUST.fail} fail; SHOULD ${counts.SHOULD.pass} pass, ${counts.SHOULD.warn} warn`,
    );
    io.out(`reports: ${[...written, junitFile].join(', ')}`);
    return verdict.exitCode;
  } catch (error) {
    if (error instanceof ConformanceError) {
      io.err(error.toLine());
      return 2;
    }
    throw error;
  } finally {
    await served?.close();
    await reference?.close();
    await closeDispatcher();
  }
}

function embeddedProfile(loaded: LoadedProfile, reference: RunningReference): LoadedProfile {
  const content = { ...(JSON.parse(loaded.text) as Record<string, unknown>), limits: reference.profile.limits };
  return profileFromObject(content, `${loaded.source} (window ${reference.profile.limits.windowSeconds} s for the embedded run)`);
}

/**
 * Generated cases per property, from the target's request rate: 100 against the embedded
 * reference (100 a second), 10 against the document's 100 a minute, so that properties cost
 * seconds of budget each, not hours. `--property-runs` raises it.
 */
export function propertyBudget(limits: { perKeyPerMinute: number; windowSeconds: number }): number {
  return Math.min(100, Math.max(10, Math.floor(limits.perKeyPerMinute / limits.windowSeconds)));
}

export function isLoopback(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
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
    propertyRuns: settings.propertyRuns,
    timeoutMs: settings.timeoutMs,
  };
}
