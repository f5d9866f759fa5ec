/**
 * Keys a run spreads its work over by default, the configured one included: at the document's 100
 * a minute per key, about twenty keys carry a full-strength run (100 cases a property, some 2100
 * requests of the main account) within one window, the floor the limits set.
 */
export const DEFAULT_MAX_KEYS = 25;

/**
 * Requests of each key's window the pool leaves unplanned: the configured key's hold-back for the
 * teardown (one request per live key), the pool's own requests (creating each key, proving the keys'
 * budgets apart), and the checks' estimate error. Without it a run that needs 98 % of a window
 * spills into the next one.
 */
export const KEY_SPARE_SHARE = 0.15;

/**
 * Keys the run spreads its work over, the configured one included (1: no pool): as many as
 * `--max-keys` says, or by default as many as carry the selected checks' requests within one window
 * at the declared limits, each key filled to its ceiling less KEY_SPARE_SHARE (at most
 * DEFAULT_MAX_KEYS), and none where one key's share already fits in a window, so that a run that
 * would not wait creates no key for speed (`--only GEN`: a dozen requests). The same rule against
 * the embedded reference, whose one-second windows pace one key's thousand requests over ten
 * seconds that ten keys spend in one. Never for a read-only run. The pool itself is made only where
 * keys can be deleted (`pool.ts`).
 */
export function poolSizeFor(
  settings: { readonly readOnly: boolean; readonly maxKeys: number | null },
  /** The selected checks' requests on the main key, were it the only key (the run's estimate, `run/estimates.ts`). */
  mainRequests: () => number,
  perKeyPerMinute: number,
): number {
  if (settings.readOnly) return 1;
  if (settings.maxKeys !== null) return settings.maxKeys;
  const requests = mainRequests();
  if (requests <= perKeyPerMinute) return 1;
  const perKey = Math.max(1, Math.floor(perKeyPerMinute * (1 - KEY_SPARE_SHARE)));
  return Math.min(DEFAULT_MAX_KEYS, Math.ceil(requests / perKey));
}
