import type { Output } from '../output.js';

/** The signals that end a run, and the exit status a shell reports for each (128 + its number). */
export const SIGNAL_EXIT = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;
export type StopSignal = keyof typeof SIGNAL_EXIT;
const SIGNALS = Object.keys(SIGNAL_EXIT) as StopSignal[];

export interface Interrupt {
  /** The first signal received, or null while none was. */
  readonly signal: StopSignal | null;
  /** Resolves with the first signal. */
  readonly received: Promise<StopSignal>;
  /**
   * Makes this the only handler of the signals: vitest's own exits the process a millisecond
   * after SIGINT, before any key is deleted. Called once vitest is set up, and again at will.
   */
  claim(): void;
  dispose(): void;
}

export interface InterruptHooks {
  /** The first signal: stop starting work (the run then tears down and reports). */
  onFirst(signal: StopSignal): void;
  /** A second signal: the last lines before the process exits at once (keys still live, the cleanup command). */
  onSecond(signal: StopSignal): void;
}

const CLAIM_EVERY_MS = 100;
/**
 * A repeat of the first signal this soon after it is the same signal: a CI runner signals the
 * process group and npm forwards what it got to its child, so one cancel arrives twice. A second
 * signal meant as one comes after a pause.
 */
export const BURST_MS = 1000;

/**
 * SIGINT (Ctrl-C; GitHub Actions' cancel), SIGTERM (GitLab, Docker, Kubernetes) and SIGHUP (a
 * closed terminal) end a run the same way, as k6 does: the first stops the checks and lets the
 * run delete its keys within its bounded teardown and write its report; a second exits at once
 * with the status of that signal, after `onSecond` has said what is left.
 */
export function onInterrupt(io: Output, hooks: InterruptHooks): Interrupt {
  let signal: StopSignal | null = null;
  let resolve!: (signal: StopSignal) => void;
  const received = new Promise<StopSignal>((r) => (resolve = r));
  let firstAt = 0;
  const handler = (which: NodeJS.Signals) => {
    const now = which as StopSignal;
    if (signal !== null) {
      if (now === signal && Date.now() - firstAt < BURST_MS) return;
      io.err(`${now} again: exiting now`);
      hooks.onSecond(now);
      process.exit(SIGNAL_EXIT[now]);
    }
    signal = now;
    firstAt = Date.now();
    hooks.onFirst(now);
    resolve(now);
  };
  // The launcher (bin/conformance.mjs) went away, killed outright: as a hangup, unless a signal
  // it forwarded already stops the run.
  const launcherGone = () => {
    if (signal === null) handler('SIGHUP');
  };
  for (const name of SIGNALS) process.on(name, handler);
  if (process.channel) process.on('disconnect', launcherGone);
  const claim = () => {
    for (const name of SIGNALS) for (const listener of process.listeners(name)) if (listener !== handler) process.off(name, listener);
  };
  // Vitest and what it loads (vite's server, signal-exit) add handlers of their own after it is
  // set up, and some of them exit or re-raise the signal: claimed again every moment of the run.
  let guard: NodeJS.Timeout | null = null;
  return {
    get signal() {
      return signal;
    },
    received,
    claim: () => {
      claim();
      guard ??= setInterval(claim, CLAIM_EVERY_MS).unref();
    },
    dispose: () => {
      if (guard) clearInterval(guard);
      for (const name of SIGNALS) process.off(name, handler);
      process.off('disconnect', launcherGone);
    },
  };
}
