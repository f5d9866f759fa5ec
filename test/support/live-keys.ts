import type { Account } from '../../reference/store.js';
import { sleep } from '../../src/sleep.js';

/** Names of the keys the suite made (by its naming, `conformance-…`) that still work, in the accounts given. */
export function liveRunKeys(accounts: readonly Account[]): string[] {
  return accounts.flatMap((account) =>
    [...account.keys.values()].filter((k) => k.revokedAtMs === null && k.name.startsWith('conformance-')).map((k) => k.name),
  );
}

/**
 * Polls `live` until it names a key: a test that interrupts a run while one of its keys is live
 * waits for that, not for a line the run prints (checks side by side may spend a window's budget
 * on reads before any of them creates a key). Rejects after `timeoutMs`.
 */
export async function untilKeyLive(live: () => string[], timeoutMs: number): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const names = live();
    if (names.length > 0) return names;
    if (Date.now() > deadline) throw new Error(`no key of the run was live within ${timeoutMs} ms`);
    await sleep(25);
  }
}
