import type { HttpResponse } from '../http/client.js';
import { sleep } from '../sleep.js';
import { suiteNow } from '../clock.js';

/** What using a new key showed: which value is the key, its first answer, and the one that authenticated. */
export interface FirstUse {
  /** The key: the declared member's value, or the candidate that authenticated; null when none did. */
  readonly secret: string | null;
  /** The first answer to `secret` (to the best candidate when none authenticated); null with no candidate. */
  readonly first: HttpResponse | null;
  /** The first answer that was not 401 (a 2xx for a guessed key); null when none came in time. */
  readonly accepted: HttpResponse | null;
  /** The last answer seen. */
  readonly last: HttpResponse | null;
  /** Answers of 401 to `secret` before `accepted`: the key not yet known where it was sent (its propagation). */
  readonly refused: number;
}

/** KEY-1 allows a new key 10 s to take effect. */
export const KEY_PROPAGATION_MS = 10_000;

/**
 * Uses a new key until it authenticates, for up to `withinMs`, once a second. A declared key
 * (the profile names its member) is the key whatever it answers, and any answer but 401 ends the
 * wait. Guessed candidates are tried in turn each round, and a value becomes the key only once it
 * answers 2xx: a name, an id or a hint never does.
 */
export async function identifySecret(
  candidates: readonly string[],
  use: (candidate: string) => Promise<HttpResponse>,
  options: { declared: boolean; withinMs?: number },
): Promise<FirstUse> {
  const firsts = new Map<string, HttpResponse>();
  const refused = new Map<string, number>();
  let last: HttpResponse | null = null;
  const deadline = suiteNow() + (options.withinMs ?? KEY_PROPAGATION_MS);
  const done = (res: HttpResponse) => (options.declared ? res.status !== 401 : res.status >= 200 && res.status < 300);
  for (let round = 0; candidates.length > 0; round++) {
    if (round > 0) {
      if (suiteNow() >= deadline) break;
      await sleep(1000);
    }
    for (const candidate of candidates) {
      const res = await use(candidate);
      if (!firsts.has(candidate)) firsts.set(candidate, res);
      last = res;
      if (done(res)) return { secret: candidate, first: firsts.get(candidate)!, accepted: res, last, refused: refused.get(candidate) ?? 0 };
      if (res.status === 401) refused.set(candidate, (refused.get(candidate) ?? 0) + 1);
    }
  }
  const best = candidates[0];
  return {
    secret: options.declared && best !== undefined ? best : null,
    first: best !== undefined ? (firsts.get(best) ?? null) : null,
    accepted: null,
    last,
    refused: best !== undefined ? (refused.get(best) ?? 0) : 0,
  };
}
