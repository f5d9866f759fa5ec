import { Broker } from '../../broker/broker.js';
import { serveBroker } from '../../broker/channel.js';
import { bucketOfCredential } from '../../http/client.js';
import { inferKeyPrefix } from '../../keys/prefix.js';
import { clockMarginMs } from '../../pacing/margin.js';
import { HarEntries } from '../../report/har-entries.js';
import { guardOutput, type GuardedOutput } from '../../secrets/leak-scan.js';
import { relayOutput } from '../../output.js';
import { checkProfileCertifiable } from '../../verdict/certification.js';
import { startHeartbeat, type Heartbeat } from '../heartbeat.js';
import { newRunId } from '../run-id.js';
import { openTarget, targetProfile, type Target } from '../target.js';
import type { RunSlices } from '../slices.js';
import type { RunSettings } from './settings.js';
import { Teardown } from '../teardown.js';
import { startSuites, type StartedSuites } from '../suites.js';
import type { RecordCollector } from '../parts.js';

/** The target opened and the run's shared state serving, before the first request. */
export interface Opened extends RunSettings {
  readonly target: Target;
  /** The target is the embedded reference server. */
  readonly embedded: boolean;
  readonly runId: string;
  /** The profile's key prefix, else the one the configured keys share (`keys/prefix.ts`). */
  readonly keyPrefix: string | null;
  readonly broker: Broker;
  /** The broker as the workers reach it. */
  readonly served: Awaited<ReturnType<typeof serveBroker>>;
  /** The console, scrubbed of secrets: its `leaks` make the run inconclusive. `io` writes through it and the heartbeat. */
  readonly guarded: GuardedOutput;
  readonly teardown: Teardown;
  /** Collects the checks' records as they finish. */
  readonly collector: RecordCollector;
  /** The HAR's entries, rendered as the broker logs the exchanges (`report/har-entries.ts`). */
  readonly harEntries: HarEntries;
  /** The checks' vitest, started and waiting for the run's context; null for a dry run. */
  readonly suites: StartedSuites | null;
  /** Keeps the run from going silent; the execution stage hands it the estimate of the time left. */
  readonly heartbeat: Heartbeat;
}

/**
 * Starts the checks' vitest (waiting for the run's context), opens the target (the embedded
 * reference, or the base URL with its profile), then starts the broker (its pacer's clock margin:
 * `pacing/margin.ts`), the heartbeat that keeps a waiting run from going silent, and the teardown
 * that deletes whatever keys the run goes on to create.
 */
export async function openStage(input: RunSettings, settings: Pick<RunSlices, 'target' | 'requests' | 'plan' | 'teardown'>): Promise<Opened> {
  const { stops } = input;
  const loaded = targetProfile(settings.target);
  // Before the first request: a certificate needs every MUST clause able to apply. The embedded
  // reference has both accounts' keys; the limits it changes are no clause's need.
  const hasOtherAccountKey = settings.target.baseUrl === null || settings.target.otherAccountApiKey !== null;
  if (settings.target.certify) checkProfileCertifiable({ profile: loaded.profile, hasOtherAccountKey }, loaded.profile.name);
  // The checks' vitest starts first, once no setting can stop the run: loading it is the longest
  // part of a run's start, and its worker loads the suites while the target starts and the
  // preflight and the key pool are under way; its checks wait for the run's context
  // (`executionStage`). A dry run has none. Its lines go to the console as they are until the
  // console is guarded (below): before the run hands the checks their context, which holds the
  // keys, vitest knows no secret to print.
  const collector = input.parts.collector();
  const suitesOutput = relayOutput(input.io);
  const suites = settings.plan.dryRun
    ? null
    : startSuites({
        selection: { only: settings.plan.only, skip: settings.plan.skip },
        collector,
        reporters: input.parts,
        io: suitesOutput,
        // Hands over the running vitest, so that a signal can stop it and clean up (interrupt.ts).
        onStart: (vitest) => {
          stops.reached({ running: vitest });
          stops.interrupt.claim();
          if (stops.interrupt.signal) void vitest.cancelCurrentRun('keyboard-input');
        },
      });
  stops.reached({ suites });
  const target = await openTarget(settings.target, loaded, input.parts.startEmbeddedTarget);
  stops.reached({ target });
  const { baseUrl, keys } = target;
  const profile = target.loaded.profile;
  // The provisional report names the target at its next writing, at most a second after the first
  // (settingsStage): written here at once, it cost the start some 15 ms while vitest loads, and
  // put off the one that names the key pool's keys to a second after this.
  stops.provisional.refresh();
  const runId = newRunId(input.startedAt);
  const keyPrefix = profile.keyPrefix ?? inferKeyPrefix([keys.main, keys.other]);
  const broker = new Broker({
    keyPrefix,
    ledgerFile: settings.teardown.ledgerFile,
    // The configured key deletes the run's keys: its pacing keeps the teardown's requests back.
    teardownBucket: bucketOfCredential('main', keys),
    pacer: {
      perKey: profile.limits.perKeyPerMinute,
      anonymous: profile.limits.unauthenticatedPerMinute,
      windowMs: profile.limits.windowSeconds * 1000,
      marginMs: clockMarginMs(baseUrl),
    },
  });
  stops.reached({ broker });
  // Probes run only while the run waits and once the target answered; the timer does not hold the process.
  broker.watchTarget(baseUrl);
  // The report's largest part, rendered while the run waits on the target rather than at its end.
  const harEntries = new HarEntries();
  harEntries.follow(() => broker.log());
  stops.reached({ harEntries });
  const guarded = guardOutput(input.io, broker.redactor);
  const heartbeat = startHeartbeat({
    io: guarded,
    waits: () => broker.waits(),
    live: process.stdout.isTTY && !process.env.CI ? (text: string) => void process.stdout.write(text) : null,
  });
  const io = heartbeat.io;
  stops.reached({ heartbeat, io });
  broker.addConfiguredSecret(keys.main);
  broker.addConfiguredSecret(keys.other);
  for (const [, value] of settings.requests.extraHeaders) broker.addConfiguredSecret(value);
  for (const form of input.signingKey?.secretForms ?? []) broker.redactor.add(form);
  suitesOutput.to(io);
  const served = await serveBroker(broker);
  stops.reached({ served });
  const teardown = new Teardown({
    target,
    broker,
    extraHeaders: settings.requests.extraHeaders,
    timeoutMs: settings.requests.timeoutMs,
    boundMs: settings.teardown.teardownTimeoutMs,
    leaveKeys: settings.teardown.leaveKeys,
    io,
  });
  stops.reached({ teardown });
  return {
    ...input,
    io,
    target,
    embedded: target.reference !== null,
    runId,
    keyPrefix,
    broker,
    served,
    guarded,
    teardown,
    collector,
    suites,
    harEntries,
    heartbeat,
  };
}
