/**
 * Keys a run spreads its work over by default, the configured one included: at the
 * document's 100 a minute per key, ten keys carry a full-strength run (100 cases a property) in about three minutes.
 */
export const DEFAULT_MAX_KEYS = 10;

/**
 * Keys the run spreads its work over, the configured one included (1: no pool): as many as
 * `--max-keys` says, or by default as many as keep each key's share of the selected checks within
 * one window at the declared limits (at most DEFAULT_MAX_KEYS), and none where one key's share
 * already fits in a window, so that a run that would not wait creates no key for speed (`--only
 * GEN`: a dozen requests). The same rule against the embedded reference, whose one-second windows
 * pace one key's thousand requests over ten seconds that ten keys spend in one. Never for a
 * read-only run. The pool itself is made only where keys can be deleted (`pool.ts`).
 */
export function poolSizeFor(
  settings: { readonly readOnly: boolean; readonly maxKeys: number | null },
  /** The selected checks' requests on the main key, were it the only key (the run's estimate, `run/estimates.ts`). */
  mainRequests: () => number,
  perKeyPerMinute: number,
): number {
  if (settings.readOnly) return 1;
  if (settings.maxKeys !== null) return settings.maxKeys;
  const windows = mainRequests() / perKeyPerMinute;
  return windows <= 1 ? 1 : Math.min(DEFAULT_MAX_KEYS, Math.ceil(windows));
}
