import { mkdirSync } from 'node:fs';
import type { RunContext } from '../../check/run-context.js';
import { currentClock } from '../../clock.js';
import type { RecordCollector } from '../parts.js';
import type { RunSlices } from '../slices.js';
import type { Equipped } from './keys.js';
import { remainingFor } from '../estimate.js';
import type { EarlyStop } from '../stops.js';

/** The checks run, or stopped: their records, and what stopped them (null: they ran to the end). */
export interface Executed extends Equipped {
  readonly collector: RecordCollector;
  readonly stop: EarlyStop | null;
}

/**
 * The execution stage: the run's context, built from the plan, handed to the checks of the vitest
 * started with the target (`suites.ts`), which were waiting for it; it ends when they do, at a
 * signal, or once the target is confirmed gone (`broker/outage.ts`), the checks still in flight
 * given a short grace to end.
 */
export async function executionStage(input: Equipped, settings: RunSlices['requests'] & Pick<RunSlices['report'], 'reportDir'>): Promise<Executed> {
  const { plan, target, broker, stops } = input;
  const context: RunContext = {
    runId: input.runId,
    baseUrl: target.baseUrl,
    embedded: input.embedded,
    keys: target.keys,
    extraHeaders: settings.extraHeaders,
    profile: target.loaded.profile,
    keyPrefix: input.keyPrefix,
    keyDeletion: input.keyDeletion,
    keyPool: input.pool.keys,
    broker: input.served.address,
    selection: plan.selection,
    strict: plan.strict,
    readOnly: plan.readOnly,
    maxSubmissions: plan.maxSubmissions,
    seed: plan.seed,
    propertyRuns: plan.propertyRuns,
    explore: plan.explore,
    timeoutMs: settings.timeoutMs,
    preflight: input.preflight,
    clock: currentClock().shared,
  };
  const { collector } = input;
  stops.reached({ collector, clauses: plan.clauses });
  // The heartbeat counts down on the plan's schedule from here: the checks' records and the accounts' keys.
  input.heartbeat.countDown(() => remainingFor({ plan, buckets: input.mainBuckets, otherBucket: input.otherBucket }, broker, collector.records));
  const { interrupt } = stops;
  if (interrupt.signal) return { ...input, collector, stop: { signal: interrupt.signal } };
  mkdirSync(settings.reportDir, { recursive: true });
  // Started by the open stage for every run but a dry run, which ends before this stage.
  if (!input.suites) throw new Error('the checks were never started');
  input.suites.begin(context);
  const suites = input.suites.done;
  const running = () => stops.trail.running;
  const gone = broker.outage.detected.then(() => null);
  const signal = await Promise.race([suites.then(() => interrupt.signal), interrupt.received, gone]);
  const outage = signal ? null : (broker.outage.outage ?? (await broker.outage.settle()));
  if (outage) void running()?.cancelCurrentRun('keyboard-input');
  if (signal || outage) {
    // The checks in flight get a moment to end (their waits were cut), never the whole teardown.
    // The grace's timer is cleared once they have: left pending, it kept the process alive for
    // its whole 2 s after the report was written, and the launcher's exit with it.
    let grace: NodeJS.Timeout | undefined;
    const graceOver = new Promise<void>((resolve) => (grace = setTimeout(resolve, stops.graceMs)));
    await Promise.race([suites.catch(() => undefined), graceOver]);
    clearTimeout(grace);
    return { ...input, collector, stop: signal ? { signal } : { targetGone: outage!.line } };
  }
  // Vitest sets the process's exit status from its own tests; the run's verdict decides it.
  process.exitCode = 0;
  return { ...input, collector, stop: null };
}
