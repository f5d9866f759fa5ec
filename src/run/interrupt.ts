import type { Vitest } from 'vitest/node';
import type { Output } from './output.js';

/** Exit status of a run stopped by Ctrl-C (128 + SIGINT), as shells report it. */
export const INTERRUPTED_EXIT = 130;

export interface Interrupt {
  /** Ctrl-C was pressed: the checks were stopped and the run gives no verdict. */
  readonly interrupted: boolean;
  /**
   * Makes this the only Ctrl-C handler: vitest's own exits the process a millisecond after the
   * signal, before any key is deleted. Called once vitest is set up.
   */
  claim(): void;
  dispose(): void;
}

/**
 * Ctrl-C during a run: stop the checks (the one running finishes, none starts), then let the run
 * delete the keys it created before it exits 130. A second Ctrl-C exits at once; the ledger
 * still lists the keys for `conformance cleanup`.
 */
export function onInterrupt(io: Output, vitest: () => Vitest | null): Interrupt {
  let interrupted = false;
  const handler = () => {
    if (interrupted) {
      io.err('interrupted again: exiting now; run `conformance cleanup` to delete the keys this run created');
      process.exit(INTERRUPTED_EXIT);
    }
    interrupted = true;
    io.err('interrupted: stopping the checks, then deleting the keys this run created (Ctrl-C again to exit at once)');
    void vitest()?.cancelCurrentRun('keyboard-input');
  };
  process.on('SIGINT', handler);
  return {
    get interrupted() {
      return interrupted;
    },
    claim: () => {
      for (const listener of process.listeners('SIGINT')) if (listener !== handler) process.off('SIGINT', listener);
    },
    dispose: () => void process.off('SIGINT', handler),
  };
}
