import { randomInt } from 'node:crypto';
import { basename } from 'node:path';
import type { Settings } from '../../config/settings.js';
import { loadSigningKey, type SigningKey } from '../../integrity/signing-key.js';
import type { Output } from '../../output.js';
import { readReportFile } from '../../report/baseline.js';
import type { ConformanceDocument } from '../../report/document.js';
import type { RunParts } from '../parts.js';
import type { RunSlices } from '../slices.js';
import { RunStops } from '../stops.js';

/** A run as it starts: what it was given, when it started, its seed, and its stop paths. */
export interface RunStart {
  readonly io: Output;
  readonly parts: RunParts;
  readonly startedAt: Date;
  /** Drawn as the run starts: every report of it, the provisional one too, names it. */
  readonly seed: number;
  readonly stops: RunStops;
}

/** The settings read whole before anything starts: the files they name are read and usable. */
export interface RunSettings extends RunStart {
  readonly baseline: { readonly report: ConformanceDocument; readonly name: string } | null;
  readonly signingKey: SigningKey | null;
}

/** Starts a run: its clock, its seed, and the handlers of what may stop it (`RunStops`). */
export function startRun(given: Pick<Settings, 'seed'>, stopping: RunSlices['stops'], io: Output, parts: RunParts): RunStart {
  const startedAt = new Date();
  const seed = given.seed ?? randomInt(2 ** 31 - 1);
  return { io, parts, startedAt, seed, stops: new RunStops({ ...stopping, startedAt, seed }, io) };
}

/**
 * The settings stage: what the settings name, read before the first request. An unreadable
 * baseline is a setting error (exit 2), not a late surprise; so is a signing key that cannot sign:
 * the run would end with reports nobody can trust.
 */
export function settingsStage(input: RunStart, settings: Pick<Settings, 'baselineFile' | 'signKey'>): RunSettings {
  const { stops } = input;
  const baseline = settings.baselineFile ? { report: readReportFile(settings.baselineFile, 'baseline'), name: basename(settings.baselineFile) } : null;
  const signingKey = settings.signKey ? loadSigningKey(settings.signKey) : null;
  stops.reached({ signingKey });
  // A provisional report, replaced at the end: a run killed outright leaves one that says it did not finish.
  stops.provisional.write();
  return { ...input, baseline, signingKey };
}
