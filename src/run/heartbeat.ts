import type { Output } from '../output.js';

/** A wait going on, in words: which budget, for what, and until when (local ms) as now known. */
export interface DescribedWait {
  readonly who: string;
  readonly what: string;
  readonly since: number;
  readonly until: number;
}

export interface HeartbeatOptions {
  readonly io: Output;
  /** The waits going on now (the pacer's, described by the broker). */
  readonly waits: () => readonly DescribedWait[];
  /** Raw writes for a live line on a terminal; null in a log (CI). */
  readonly live: ((text: string) => void) | null;
  /**
   * In a log, the longest silence: a plain line at least this often while the run waits or works.
   * Under 10 s by a tick, so that no gap a reader sees reaches 10 s. @default 9000
   */
  readonly quietMs?: number;
  /** @default 1000 */
  readonly tickMs?: number;
  readonly now?: () => number;
}

export interface Heartbeat {
  /** The output to write through, so that the heartbeat knows when the run last spoke. */
  readonly io: Output;
  /** What the timer does every `tickMs`: says what the run waits for, when it is time to. */
  tick(): void;
  /** Hands the heartbeat the run's estimate of the seconds it still needs, once the run has one (the checks started). */
  countDown(remainingS: () => number | null): void;
  stop(): void;
}

/** A wait shorter than this is not worth a line of its own in a log. */
const ANNOUNCE_MS = 2000;

/** Erases the current terminal line (CR, then ANSI "erase in line"). */
const ERASE = '\r\x1b[2K';

/**
 * Keeps a run from going silent, as k6 does: on a terminal, one live line redrawn every second
 * while the run waits for a rate-limit budget (what for, how much longer, and the run's expected
 * remaining time); in a log, a plain line at least every `quietMs` of silence, saying the same
 * while it waits, or that it is still working. The time it names is re-read every tick from the
 * pacer, so it is the time the run now expects to wait, not a first guess.
 */
export function startHeartbeat(options: HeartbeatOptions): Heartbeat {
  const now = options.now ?? Date.now;
  const quietMs = options.quietMs ?? 9_000;
  let lastSpoke = now();
  let liveShown = false;
  // Unknown until the run hands it an estimate (`countDown`).
  let remainingS: () => number | null = () => null;
  const announced = new Set<number>();
  const erase = () => {
    if (liveShown) options.live?.(ERASE);
    liveShown = false;
  };
  const io: Output = {
    out: (line) => {
      erase();
      lastSpoke = now();
      options.io.out(line);
    },
    err: (line) => {
      erase();
      lastSpoke = now();
      options.io.err(line);
    },
  };
  let said: Said | null = null;
  const tick = () => {
    const waits = options.waits();
    said = countingDown(said, remainingS(), now());
    const left = said?.s ?? null;
    const run = left === null ? '' : `; the run needs about ${formatS(left)} more`;
    if (options.live) {
      if (waits.length === 0) return erase();
      options.live(`${ERASE}  … ${describe(waits, now())}${run}`);
      liveShown = true;
      return;
    }
    // A new long wait is said at once; then again whenever the log has been quiet for quietMs.
    const fresh = waits.find((w) => !announced.has(w.since) && w.until - now() >= ANNOUNCE_MS);
    for (const w of waits) announced.add(w.since);
    if (!fresh && now() - lastSpoke < quietMs) return;
    io.out(waits.length > 0 ? `  … ${describe(waits, now())}${run}` : `  … still running${run}`);
  };
  const timer = setInterval(tick, options.tickMs ?? 1000);
  timer.unref();
  return {
    io,
    tick,
    countDown: (estimate) => {
      remainingS = estimate;
    },
    stop: () => {
      clearInterval(timer);
      erase();
    },
  };
}

/** A figure of the remaining time as the heartbeat said it, in seconds, and when (ms). */
export interface Said {
  readonly s: number;
  readonly at: number;
}

/**
 * The remaining time as the heartbeat says it: a countdown, one second a second from the figure
 * last said. The estimate moves by more than the clock between two readings with no news behind
 * it (a window's end is read before the next window's first answer; a check sent a few requests
 * more than planned; whole seconds round), and a line that said 47 s and, three seconds later,
 * 50 s would tell a reader the run fell behind. An estimate above the countdown by no more than its
 * accuracy (`riseNoise`: it is good to a quarter) keeps the countdown going; a larger rise is news,
 * and is said; an estimate below the countdown is said at once.
 */
export function countingDown(last: Said | null, estimate: number | null, now: number): Said | null {
  if (estimate === null) return null;
  if (last === null) return { s: estimate, at: now };
  const expected = Math.max(0, last.s - Math.max(0, now - last.at) / 1000);
  const keep = estimate > expected && estimate - expected <= riseNoise(expected);
  return { s: keep ? expected : estimate, at: now };
}

/** A rise of the estimate over the countdown that is not news: two seconds, or a quarter of the figure. */
function riseNoise(expectedS: number): number {
  return Math.max(2, expectedS / 4);
}

/** The longest wait first: "waiting 14 s more for the rate-limit window (the main key), 6 s so far, until 12:00:14 UTC". */
function describe(waits: readonly DescribedWait[], at: number): string {
  const longest = waits.reduce((a, b) => (b.until > a.until ? b : a));
  const others = waits.length > 1 ? ` (and ${waits.length - 1} other wait(s))` : '';
  return (
    `waiting ${formatS((longest.until - at) / 1000)} more for ${longest.what} (${longest.who}), ` +
    `${formatS((at - longest.since) / 1000)} so far, until ${new Date(longest.until).toISOString().slice(11, 19)} UTC${others}`
  );
}

function formatS(seconds: number): string {
  return `${Math.max(0, Math.ceil(seconds))} s`;
}
