import type { Account } from '../../reference/store.js';

/** Names of the keys the suite made (by its naming, `conformance-…`) that still work, in the accounts given. */
export function liveRunKeys(accounts: readonly Account[]): string[] {
  return accounts.flatMap((account) =>
    [...account.keys.values()].filter((k) => k.revokedAtMs === null && k.name.startsWith('conformance-')).map((k) => k.name),
  );
}
