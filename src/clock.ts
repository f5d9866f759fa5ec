/**
 * The suite's own clock, in milliseconds since the Unix epoch, and the one wait every module uses
 * (`sleep.ts`). Every wait, deadline and exchange time of a run reads it.
 *
 * The real clock is the wall time at the thread's start plus the monotonic time since, so that a
 * step of the machine's wall clock during a run (NTP correcting a drifted clock) moves no wait and
 * reorders no exchange. It is close to the wall time, and never the API's time: a time the API
 * sent is read on the API's own clock (src/http/server-clock.ts).
 *
 * The simulated clock is the project's own tests' (time as a dependency): the real clock plus an
 * offset that only grows, which a wait for the target's time (a rate window, a key's propagation,
 * a Retry-After) moves at once instead of sleeping. The offset lives in shared memory, so that the
 * run's threads (the main thread's pacer, the checks' worker) read one time; a target in another
 * process reads it from the header every request carries (`SIMULATED_TIME_HEADER`), as the
 * reference does when it is started on the simulated clock. Waits shorter than a poll
 * (`REAL_BELOW_MS`) pass in real time: they wait for an answer on its way, not for the target's time.
 */
export interface Clock {
  now(): number;
  /** Resolves once `ms` of this clock have passed. */
  sleep(ms: number): Promise<void>;
  /**
   * Marks a request begun and not yet answered, until the function it returns is called and its
   * thread has had a turn (what the answer's continuation sends at once follows it without a gap):
   * the simulated clock does not move while one is, as its answer would have come long before.
   */
  requestBegun(): () => void;
  /**
   * Marks a begun request waiting (for a budget, before a retry), until the function it returns is
   * called: a wait of the simulated clock, which one request on its way would not hold back.
   */
  requestWaits(): () => void;
  /** The simulated clock's shared state, for the run's other threads; null on the real clock. */
  readonly shared: SharedArrayBuffer | null;
}

/** The header that carries a simulated clock's time (ms since the epoch) to a target in another process. */
export const SIMULATED_TIME_HEADER = 'x-conformance-simulated-time';

/** The environment variable by which the project's tests start a run on the simulated clock (`bin/parts.ts`). */
export const SIMULATED_CLOCK_VARIABLE = 'CONFORMANCE_SIMULATED_CLOCK';

/** A wait shorter than this passes in real time on the simulated clock: it polls for an answer on its way. */
export const REAL_BELOW_MS = 100;

const realNow = (): number => performance.timeOrigin + performance.now();
const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

const nothing = (): void => undefined;

export const REAL_CLOCK: Clock = { now: realNow, sleep: realSleep, requestBegun: () => nothing, requestWaits: () => nothing, shared: null };

/** How often a wait on the simulated clock looks again while requests are in flight (real ms). */
const IN_FLIGHT_POLL_MS = 2;

/** A simulated clock over `shared` (new, at an offset of 0, when not given; another thread's to read the same time). */
export function simulatedClock(shared: SharedArrayBuffer = new SharedArrayBuffer(16)): Clock {
  // The offset in microseconds, as an integer (Atomics work on integer arrays only); the requests
  // begun and not answered across the run's threads, and of those, the ones waiting.
  const offset = new BigInt64Array(shared, 0, 1);
  const counts = new Int32Array(shared, 8, 2);
  const [BEGUN, WAITING] = [0, 1];
  const mark = (which: number, release: (end: () => void) => void) => () => {
    Atomics.add(counts, which, 1);
    let done = false;
    return () => {
      if (!done) release(() => Atomics.sub(counts, which, 1));
      done = true;
    };
  };
  // An answer leaves the count after its thread's next turn, not at once: the continuation that
  // received it (the next request of a sequence) runs first. Else a wait in another thread (the
  // pacer's, on the main thread) could find none in flight in the moment between an answer and the
  // request sent on it, longer on a loaded machine, and move the clock past a window that sequence
  // needs whole, where in real time it would have taken microseconds. A wait's end is at once: its
  // request is on its way again.
  const afterTurn = (end: () => void) => void setImmediate(end);
  const atOnce = (end: () => void) => end();
  const now = () => realNow() + Number(Atomics.load(offset, 0)) / 1000;
  const moveTo = (until: number) => {
    // Forward to `until`, never back: a wait beside this one may have moved it further already.
    const wanted = BigInt(Math.ceil((until - realNow()) * 1000));
    for (let seen = Atomics.load(offset, 0); seen < wanted; seen = Atomics.load(offset, 0)) {
      if (Atomics.compareExchange(offset, 0, seen, wanted) === seen) break;
    }
  };
  return {
    now,
    shared,
    requestBegun: mark(BEGUN, afterTurn),
    requestWaits: mark(WAITING, atOnce),
    sleep: async (ms) => {
      if (ms < REAL_BELOW_MS) return realSleep(ms);
      const until = now() + ms;
      for (;;) {
        // A turn of the event loop first, as any wait gives: what was ready runs before the clock
        // moves, and waits begun together end at the furthest of them, not at their sum.
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (now() >= until) return;
        // A request on its way would have been answered long before the wait ended: the clock
        // moves once none is (the answer arrives first, as in real time), and until then the
        // wait passes in real time. A request that waits itself is not on its way.
        if (Atomics.load(counts, BEGUN) - Atomics.load(counts, WAITING) <= 0) return moveTo(until);
        await realSleep(Math.min(IN_FLIGHT_POLL_MS, until - now()));
      }
    },
  };
}

let current: Clock = REAL_CLOCK;

/** Sets this thread's clock: the composition root's choice on the main thread, the run's on a worker. */
export function useClock(clock: Clock): void {
  current = clock;
}

/** This thread's clock. */
export function currentClock(): Clock {
  return current;
}

/**
 * Awaits `wait` (a budget, a retry's delay) with the request marked waiting on the current clock
 * (`Clock.requestWaits`), the mark taken off however the wait ends: the one way the request layers
 * hold a request back without keeping the simulated clock from moving.
 */
export async function whileWaiting<T>(wait: () => Promise<T>): Promise<T> {
  const waited = current.requestWaits();
  try {
    return await wait();
  } finally {
    waited();
  }
}

export function suiteNow(): number {
  return current.now();
}
