import { hostname } from 'node:os';
import { Ledger, ledgerEntry, outstandingOf, readLedgerFile, type LedgerEntry } from '../../broker/ledger.js';
import { readSettings } from '../../config/settings.js';
import { ConformanceError } from '../../errors.js';
import { closeDispatcher, HttpClient } from '../../http/client.js';
import { ownPacing } from '../../pacing/own-pacing.js';
import { runOfKeyName } from '../../keys/run-key-name.js';
import { loadProfile } from '../../profile/profile.js';
import { deleteKeys, describeCleanup, listKeys } from '../../run/cleanup.js';
import { DOCUMENT_PROFILE_FILE } from '../../profile/shipped.js';
import type { Command } from '../command.js';

/**
 * How old a suite-named key must be before `cleanup` deletes it by its name alone: longer than
 * any run can last (a run paced at the document's 20 and 100 a minute takes well under an hour;
 * a day leaves room for the slowest target), so that a run going on beside it is never touched.
 */
export const LONGEST_RUN_MS = 24 * 60 * 60 * 1000;

/**
 * `conformance cleanup`: deletes the keys interrupted runs left on the target. First those the
 * ledger lists as created and not deleted (unless their run is still going), then keys named by
 * the suite and older than the longest possible run. Lists before deleting, says what it deleted.
 * Exit 0 when nothing is left, 1 when a key could not be deleted. Keys are deleted at the
 * profile's key path, or at `--key-path` where given (a profile that declares none).
 */
export const cleanupCommand: Command = async (argv, io) => {
  const { keyPath, args } = takeKeyPath(argv);
  const settings = readSettings(args);
  if (settings.baseUrl === null) {
    throw new ConformanceError(
      'CONF_SETTING_INVALID',
      'cleanup needs the target (CONFORMANCE_BASE_URL or --base-url): the embedded reference keeps nothing between runs',
    );
  }
  const baseUrl = settings.baseUrl;
  const loaded = loadProfile(settings.profileFile ?? DOCUMENT_PROFILE_FILE).profile;
  // A key path given now (a run that found its own, or one the profile did not declare) wins.
  const profile = keyPath ? { ...loaded, paths: { ...loaded.paths, apiKey: keyPath } } : loaded;
  const http = new HttpClient({
    baseUrl,
    keys: { main: settings.apiKey, other: null },
    extraHeaders: settings.extraHeaders,
    timeoutMs: settings.timeoutMs,
    hooks: ownPacing(profile.limits),
    currentCheck: () => 'cleanup',
  });
  const ledger = new Ledger(settings.ledgerFile);
  try {
    const entries = readLedgerFile(settings.ledgerFile);
    const outstanding = outstandingOf(entries, 'api_key').filter((e) => sameTarget(e.baseUrl, baseUrl));
    const live = outstanding.filter(runStillGoing);
    const mine = outstanding.filter((e) => !runStillGoing(e));
    for (const e of live) io.out(`  left alone: ${e.name ?? e.id} [${e.id}], its run (process ${e.pid}) is still going`);
    if (mine.length > 0) {
      io.out(`cleanup: ${mine.length} key(s) in ${settings.ledgerFile} created by interrupted runs and not deleted:`);
      for (const e of mine) io.out(`  ${e.name ?? '(no name)'} [${e.id}] created ${e.at} by run ${e.runId}`);
    }
    const fromLedger = await deleteKeys(http, ledger, profile, mine);

    // Keys the ledger never heard of (a run killed between creation and its ledger line): by name.
    const handled = new Set([...entries.map((e) => e.id), ...fromLedger.deleted.map((e) => e.id)]);
    const now = Date.now();
    const stale = (await listKeys(http, profile)).flatMap((k) => {
      const run = handled.has(k.id) ? null : runOfKeyName(k.name);
      return run && now - run.startedAt > LONGEST_RUN_MS ? [{ ...k, runId: run.runId }] : [];
    });
    if (stale.length > 0) {
      io.out(`cleanup: ${stale.length} key(s) named by this suite, from runs that started more than ${LONGEST_RUN_MS / 3_600_000} h ago:`);
      for (const k of stale) io.out(`  ${k.name} [${k.id}]`);
    }
    const byName = await deleteKeys(
      http,
      ledger,
      profile,
      stale.map((k) => ledgerEntry({ runId: k.runId, baseUrl }, { event: 'created', id: k.id, name: k.name, note: 'found by name' })),
    );
    const result = { deleted: [...fromLedger.deleted, ...byName.deleted], leftBehind: [...fromLedger.leftBehind, ...byName.leftBehind] };
    if (mine.length === 0 && stale.length === 0) io.out(`cleanup: nothing to delete on ${baseUrl}`);
    else io.out(`cleanup: ${describeCleanup(result)}`);
    return result.leftBehind.length > 0 ? 1 : 0;
  } finally {
    await closeDispatcher();
  }
};

/**
 * `--key-path '/api/v1/.../{id}'`: where to delete the keys, whatever the profile says (the
 * profile's paths start with /api/v1/ and put the id at `{id}`; so must this one).
 */
export function takeKeyPath(argv: readonly string[]): { keyPath: string | null; args: string[] } {
  const args: string[] = [];
  let keyPath: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--key-path' || arg.startsWith('--key-path=')) {
      const value = arg === '--key-path' ? argv[++i] : arg.slice('--key-path='.length);
      if (!value || !value.startsWith('/api/v1/') || !value.includes('{id}'))
        throw new ConformanceError(
          'CONF_SETTING_INVALID',
          `--key-path must be a path under /api/v1/ with {id} where the key's id goes (got ${value ?? 'nothing'})`,
        );
      keyPath = value;
    } else args.push(arg);
  }
  return { keyPath, args };
}

/** The ledger of one report folder may hold runs against several targets. */
function sameTarget(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

/** A run on this host whose process is alive: its keys are its own business. */
function runStillGoing(entry: LedgerEntry): boolean {
  if (entry.pid === undefined || entry.host !== hostname() || entry.pid === process.pid) return false;
  try {
    process.kill(entry.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
