/** How often, at most, the provisional report is written again while the ledger changes. */
export const REFRESH_EVERY_MS = 1000;

export interface ProvisionalReport {
  /** Writes it now. */
  write(): void;
  /** Writes it again soon: at most once every `everyMs`, the last change always included. */
  refresh(): void;
  /** The run's own report replaces it: nothing is written after this. */
  close(): void;
}

/**
 * The report a run writes as it starts, and again as its ledger changes (a key created or deleted),
 * so that a run killed outright leaves a report that names the keys that may still be live.
 * Rewrites are throttled: a key pool of fifty keys is one or two writes, not fifty.
 */
export function provisionalReport(write: () => void, everyMs = REFRESH_EVERY_MS): ProvisionalReport {
  let closed = false;
  let lastAt = 0;
  let timer: NodeJS.Timeout | null = null;
  const now = () => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = null;
    lastAt = Date.now();
    write();
  };
  return {
    write: now,
    refresh: () => {
      if (closed || timer) return;
      timer = setTimeout(now, Math.max(0, lastAt + everyMs - Date.now()));
      timer.unref();
    },
    close: () => {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
