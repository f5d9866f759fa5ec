import type { Output } from '../output.js';

/** The signals that end a run, and the exit status a shell reports for each (128 + its number). */
export const SIGNAL_EXIT = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;
export type StopSignal = keyof typeof SIGNAL_EXIT;
const SIGNALS = Object.keys(SIGNAL_EXIT) as StopSignal[];

export interface Interrupt {
  /** The signal that stops the run (the first received, or the one the launcher's exit came with), or null while none was. */
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

/** The first stop a run heard: its signal, when, and whether it was the launcher going away (heard as SIGHUP). */
export interface FirstStop {
  readonly signal: StopSignal;
  readonly at: number;
  readonly launcherGone: boolean;
}

/**
 * What a signal means to a run that heard `first` (null: none yet). Within BURST_MS of the first,
 * any signal is the same stop: a runner signals the group, npm forwards its copy, and the launcher,
 * killed with the group, goes away, in whatever order they reach the run (on a loaded machine the
 * launcher's going came before the group's SIGTERM). Where the first was the launcher going away,
 * the signal that came with it names the stop (`adopt`). After a pause, a signal is a second one.
 */
export function meaningOf(first: FirstStop | null, signal: StopSignal, at: number): 'first' | 'same' | 'adopt' | 'second' {
  if (first === null) return 'first';
  if (at - first.at >= BURST_MS) return 'second';
  return first.launcherGone ? 'adopt' : 'same';
}

/**
 * SIGINT (Ctrl-C; GitHub Actions' cancel), SIGTERM (GitLab, Docker, Kubernetes) and SIGHUP (a
 * closed terminal) end a run the same way, as k6 does: the first stops the checks and lets the
 * run delete its keys within its bounded teardown and write its report; a second exits at once
 * with the status of that signal, after `onSecond` has said what is left.
 */
export function onInterrupt(io: Output, hooks: InterruptHooks): Interrupt {
  let first: FirstStop | null = null;
  let resolve!: (signal: StopSignal) => void;
  const received = new Promise<StopSignal>((r) => (resolve = r));
  const heard = (now: StopSignal, launcherGone: boolean) => {
    const at = Date.now();
    switch (meaningOf(first, now, at)) {
      case 'same':
        return;
      case 'adopt':
        first = { ...first!, signal: now, launcherGone: false };
        io.err(`${now}: the same stop as the launcher's exit, named by its signal`);
        return;
      case 'second':
        io.err(`${now} again: exiting now`);
        hooks.onSecond(now);
        process.exit(SIGNAL_EXIT[now]);
        return;
      case 'first':
        first = { signal: now, at, launcherGone };
        hooks.onFirst(now);
        resolve(now);
    }
  };
  const handler = (which: NodeJS.Signals) => heard(which as StopSignal, false);
  // The launcher (bin/conformance.mjs) went away, killed outright: as a hangup, unless a signal
  // it forwarded already stops the run.
  const launcherGone = () => {
    if (first === null) heard('SIGHUP', true);
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
      return first?.signal ?? null;
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
