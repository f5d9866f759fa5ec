import type { Exchange } from '../http/exchange.js';
import type { ScheduleRecord } from '../report/document.js';
import type { Schedule } from './schedule.js';

/**
 * The schedule beside what the run did, for the report: the predicted wall time from the run's
 * start (`beforeMs`: the time it took to make the schedule), and each budget's planned requests
 * beside those its buckets counted (the pool's keys: the most one key carried).
 */
export function scheduleRecord(
  plan: Schedule,
  beforeMs: number,
  log: readonly Exchange[],
  buckets: { readonly main: string; readonly pool: readonly string[]; readonly other: string | null },
): ScheduleRecord {
  const sent = new Map<string, number>();
  const created = new Map<string, number>();
  let withoutKey = 0;
  for (const e of log) {
    if (e.auth === 'none') withoutKey++;
    else sent.set(e.bucket, (sent.get(e.bucket) ?? 0) + 1);
    if (e.auth === 'created') created.set(e.bucket, (created.get(e.bucket) ?? 0) + 1);
  }
  const actual: Record<string, number> = {
    'the configured key': sent.get(buckets.main) ?? 0,
    'keys of the pool': Math.max(0, ...buckets.pool.map((b) => sent.get(b) ?? 0)),
    "the second account's key": buckets.other ? (sent.get(buckets.other) ?? 0) : 0,
    'requests without a key': withoutKey,
    'a key exhausted on purpose': Math.max(0, ...created.values()),
  };
  return {
    plannedMs: Math.round(beforeMs + plan.seconds * 1000),
    windowSeconds: plan.windowSeconds,
    windows: plan.windows,
    keys: plan.keys,
    budgets: plan.budgets.map((b) => ({ who: b.who, count: b.count, planned: b.requests, actual: actual[b.who] ?? 0 })),
  };
}
