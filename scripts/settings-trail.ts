import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUN_PARTS } from '../bin/parts.js';
import { readSettings, type Settings } from '../src/config/settings.js';
import { run } from '../src/run/run.js';

// Follows a run's settings through the code (issue 45): a run against the embedded reference
// whose settings object (and every object in it) records, at each read, the function and file
// that read it. In the order of the reads, each time the trail enters a file, or comes back to
// one it left, is a stay: a reader following the settings opens that many places. A module that
// hands the settings on whole, instead of what its callee needs, adds stays.

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

export interface Trail {
  /** The functions that read the settings (`file:function`), in the order of their first read. */
  readonly places: readonly string[];
  readonly files: number;
  /** Along the places in that order, entries into a file, the first included: the stays of a reader who follows the settings once. */
  readonly stays: number;
  /** Of those, entries into a file the trail had left before. */
  readonly returns: number;
  /** Entries into a file along every read of the run: a path taken again (the provisional report, rewritten as the run goes) counts again. */
  readonly runStays: number;
}

/** Entries into a file along `reads` (`file:function`), and of those, returns to a file left before. */
function staysAlong(reads: readonly string[]): { stays: number; returns: number } {
  const seen = new Set<string>();
  let at: string | null = null;
  let stays = 0;
  let returns = 0;
  for (const read of reads) {
    const file = read.split(':')[0]!;
    if (file === at) continue;
    stays++;
    if (seen.has(file)) returns++;
    seen.add(file);
    at = file;
  }
  return { stays, returns };
}

/** The function and file of the code that made a read: the first frame of the suite's own code, not this script's. */
function reader(): string | null {
  const frames = (new Error().stack ?? '').split('\n').slice(1);
  for (const frame of frames) {
    const at = /at (?:(.*?) \()?(?:file:\/\/)?(\/[^:)]+):\d+:\d+\)?$/.exec(frame.trim());
    if (!at) continue;
    const file = at[2]!;
    if (file === SELF || !file.startsWith(ROOT) || file.includes('/node_modules/')) continue;
    return `${relative(ROOT, file)}:${at[1] ?? '(top level)'}`;
  }
  return null;
}

/** `value`, whose every read (its members' too) is written to `reads`. */
function traced<T>(value: T, reads: string[], cache = new WeakMap<object, unknown>()): T {
  if (value === null || typeof value !== 'object') return value;
  const known = cache.get(value);
  if (known) return known as T;
  const proxy = new Proxy(value, {
    get(target, key, receiver) {
      const member = Reflect.get(target, key, receiver);
      const place = typeof key === 'string' ? reader() : null;
      if (place) reads.push(place);
      const descriptor = Object.getOwnPropertyDescriptor(target, key);
      // A frozen member must be handed as it is (a proxy's invariant).
      if (descriptor && !descriptor.configurable && !descriptor.writable) return member;
      // Arrays go as they are: vitest clones what the run hands its workers, and a proxy does not clone.
      return typeof member === 'function' || Array.isArray(member) ? member : traced(member, reads, cache);
    },
    ownKeys(target) {
      const place = reader();
      if (place) reads.push(place);
      return Reflect.ownKeys(target);
    },
  });
  cache.set(value, proxy);
  return proxy;
}

/** The trail of one run's settings (`args`, against the embedded reference by default). */
export async function settingsTrail(args: readonly string[] = ['--only', 'GEN-2']): Promise<Trail> {
  const reportDir = mkdtempSync(join(tmpdir(), 'settings-trail-'));
  const reads: string[] = [];
  try {
    const settings = traced(readSettings([...args, '--report-dir', reportDir], {}), reads) as Settings;
    const quiet = { out: () => {}, err: () => {} };
    await run(settings, quiet, RUN_PARTS);
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
  const places = [...new Set(reads)];
  const files = new Set(places.map((p) => p.split(':')[0])).size;
  return { places, files, ...staysAlong(places), runStays: staysAlong(reads).stays };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const trail = await settingsTrail(process.argv.slice(2).length > 0 ? process.argv.slice(2) : undefined);
  process.stdout.write(`${trail.places.join('\n')}\n`);
  process.stdout.write(
    `${trail.places.length} places in ${trail.files} files; followed once, ${trail.stays} stays, ${trail.returns} of them returns to a file already left; along every read of the run, ${trail.runStays} stays\n`,
  );
  process.exit(0);
}
