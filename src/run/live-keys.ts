import type { LedgerEntry } from '../broker/ledger.js';

/** Keys named one a line, at most this many: a pool of fifty is read in the ledger, not in a CI log. */
const LISTED_KEYS = 10;

/**
 * Keys still live on the target and the exact command that deletes them, on the first line; then
 * each key by name and id, one a line (the command is what a reader copies: it comes first).
 */
export function liveKeysLine(live: readonly LedgerEntry[], settings: CleanupSettings, keyPath: string | null): string {
  if (live.length === 0) return 'no key of this run is live on the target';
  const names = live.slice(0, LISTED_KEYS).map((e) => `  ${e.name ?? '(no name)'} [${e.id}]`);
  if (live.length > LISTED_KEYS) names.push(`  … and ${live.length - LISTED_KEYS} more (the ledger lists them)`);
  const first =
    settings.baseUrl === null
      ? `${live.length} key(s) of the embedded reference server were not deleted: they end with it`
      : `${live.length} key(s) still live on the target: delete them with: ${cleanupCommand(settings, keyPath)}`;
  return [first, ...names].join('\n');
}

/** What reaches the same target and ledger as the run: its report folder, base URL and profile. */
export interface CleanupSettings {
  readonly reportDir: string;
  readonly baseUrl: string | null;
  readonly profileFile: string | null;
}

/** `conformance cleanup` with the settings that reach the same target and ledger. */
export function cleanupCommand(settings: CleanupSettings, keyPath: string | null = null): string {
  const quote = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);
  const parts = ['npx', 'conformance', 'cleanup', '--report-dir', quote(settings.reportDir)];
  if (settings.baseUrl) parts.push('--base-url', quote(settings.baseUrl));
  if (settings.profileFile) parts.push('--profile', quote(settings.profileFile));
  if (keyPath) parts.push('--key-path', quote(keyPath));
  return parts.join(' ');
}
