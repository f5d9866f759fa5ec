/**
 * The suite's own clock, in milliseconds since the Unix epoch: the wall time at the thread's start
 * plus the monotonic time since. Every wait, deadline and exchange time of a run reads it, so that a
 * step of the machine's wall clock during a run (NTP correcting a drifted clock) moves no wait and
 * reorders no exchange. It is close to the wall time, and never the API's time: a time the API
 * sent is read on the API's own clock (src/http/server-clock.ts).
 */
export function suiteNow(): number {
  return performance.timeOrigin + performance.now();
}
