import type { Broker } from '../broker/broker.js';
import type { CheckRecord } from '../check/outcome.js';
import type { AuthKind } from '../http/exchange.js';
import { checkId, type Schedule } from './schedule.js';
import { remainingSeconds } from './countdown.js';
import { suiteNow } from '../clock.js';

/**
 * What the heartbeat's estimate counts down on: the plan's schedule and the requests sent before it
 * was made (the plan stage's `Plan` has both), the main account's keys (the configured one, then
 * the pool's), and the second account's key, where there is one.
 */
export interface EstimateBasis {
  readonly plan: { readonly schedule: Schedule; readonly sentBefore: number };
  readonly buckets: readonly string[];
  readonly otherBucket: string | null;
}

/**
 * The heartbeat's estimate, in seconds: the plan's schedule against the checks finished and where
 * the main account's keys stand; null until the plan is made and the checks have started.
 */
export function remainingFor(basis: EstimateBasis | null, broker: Broker, records: readonly CheckRecord[] | undefined): number | null {
  if (basis === null || records === undefined) return null;
  const { plan, buckets, otherBucket } = basis;
  // The pacer's clock, which its standings and waits are on.
  const now = suiteNow();
  const standings = buckets.map((bucket) => broker.pacer.standing(bucket));
  const resetAt = standings[0]?.resetAt ?? null;
  const log = broker.log();
  const since = log.slice(plan.sentBefore);
  const on = (auth: AuthKind) => since.filter((e) => e.auth === auth).length;
  return remainingSeconds(plan.schedule, {
    sent: { all: since.length, main: on('main'), other: on('other') },
    finished: new Map(
      records.map((r) => [
        checkId(r),
        {
          all: Object.values(r.requests ?? {}).reduce((sum, n) => sum + (n ?? 0), 0),
          main: r.requests?.main ?? 0,
          other: r.requests?.other ?? 0,
        },
      ]),
    ),
    standing: {
      room: standings.reduce((sum, x) => sum + x.room, 0),
      untilResetS: resetAt === null ? null : Math.max(0, (resetAt - now) / 1000),
      ...(otherBucket !== null ? { otherRoom: broker.pacer.standing(otherBucket).room } : {}),
    },
    waitS: Math.max(0, ...broker.waits().map((w) => (w.until - now) / 1000)),
  });
}
