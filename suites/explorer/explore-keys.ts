import fc from 'fast-check';
import { keyBound, type CheckContext, type ClauseId, type HttpResponse } from '../../src/kit.js';
import { CreateKey, Disagreement, EXPLORER_KEYS, KEY_COMMANDS, KEY_COVER, type KeyModel, type KeyReal } from './key-model.js';

/** A sequence whose answers the model does not allow, on one clause. */
export interface ExploredDisagreement {
  readonly clause: ClauseId;
  readonly reason: string;
  /** Every answer of the (shrunk) sequence, in order: the steps, each with its curl line in the report. */
  readonly evidence: readonly HttpResponse[];
  readonly replay: { readonly seed: number; readonly path?: string | undefined; readonly counterexample: string };
}

/** What the exploration of the key lifecycle found: the first disagreement of each clause it met, and what it explored. */
export interface KeyExploration {
  /** At most one a clause, in the order met: every sequence of the cover's, or the first drawn one, shrunk. */
  readonly disagreements: readonly ExploredDisagreement[];
  /** A disagreement ended the exploration before the sequences it was to draw: a clause with none of its own was not judged whole. */
  readonly cut: boolean;
  /** Sequences run: the cover's, then those drawn (shrinking included). */
  readonly sequences: number;
  /** Each sequence run, one line: where it came from, its steps, and how it ended. */
  readonly explored: readonly string[];
}

/** Commands in a drawn sequence, at most. */
const MAX_COMMANDS = 6;
/** Sequences fast-check may replay while shrinking a failure: each creates keys on the target, so the shrink is bounded. */
const MAX_SHRINK_RUNS = 12;

/**
 * Every drawn sequence opens with a key: one that never creates a key has nothing to act on, and
 * fast-check skips each step the model does not allow (measured: 4 of 10 drawn sequences did nothing).
 */
const OPENING = () => new CreateKey('the default actor');

/** A drawn sequence's steps that ran, its opening first, as its line in the report and its counterexample. */
function stepsOf(commands: Iterable<fc.AsyncCommand<KeyModel, KeyReal>>): string {
  // fast-check's own words for the steps that ran, comma-separated, without its replay comment.
  const ran = String(commands).replace(/\s*\/\*.*\*\/$/, '');
  return [String(OPENING()), ...(ran === '' ? [] : ran.split(','))].join(', ');
}

/**
 * Runs one sequence on a model of its own (the account's other keys are not the model's), then
 * deletes the keys it left live with its actor. Throws the sequence's first disagreement, with
 * every answer of the sequence as its evidence.
 */
async function runSequence(
  t: CheckContext,
  actor: KeyReal['actor'],
  serial: KeyReal['serial'] & { readonly budget: number },
  departures: KeyReal['departures'],
  commands: Iterable<fc.AsyncCommand<KeyModel, KeyReal>>,
): Promise<void> {
  const canDelete = t.run.keyDeletion.path !== null;
  const model: KeyModel = { live: [], deleted: [], made: 0, keysLeft: serial.budget - serial.created, canDelete };
  const real: KeyReal = { t, actor, trail: [], serial, departures };
  try {
    await fc.asyncModelRun(() => ({ model, real }), commands);
  } catch (error) {
    if (error instanceof Disagreement) throw new Disagreement(error.clause, error.reason, real.trail.length > 0 ? real.trail : error.evidence);
    throw error;
  } finally {
    for (const left of model.live) await t.keys.delete(left.key, actor ?? undefined).catch(() => undefined);
  }
}

/**
 * The key lifecycle explored: the cover's sequences (the same in every run), then `runs` sequences
 * drawn from the run's seed, within the budget the schedule leaves (each a few requests). Each
 * sequence runs on a model of its own, so a disagreement in one says nothing of the next: every
 * sequence of the cover runs, and each clause keeps the first it broke (a fault whose key is
 * missing from the list may also leave a deleted key working, and the order of the cover must not
 * decide which one the report shows). A departure from a SHOULD is kept and allowed from then on
 * (`KeyReal.departures`), and ends nothing. A disagreement of the cover's ends the exploration before
 * the drawn sequences; the first drawn one ends it too, shrunk to the shortest sequence that
 * still shows it. Anything but a disagreement (a target that stopped answering, a check that
 * cannot run) goes on up.
 */
export async function exploreKeys(t: CheckContext, runs: number): Promise<KeyExploration> {
  // A key of the run's pool acts where no actor is drawn: the main key's budget is the teardown's.
  const pool = t.run.keyPool;
  const actor = pool.length > 0 ? { key: pool[pool.length - 1]!, kind: 'created' as const } : null;
  let sequences = 0;
  const explored: string[] = [];
  const disagreements: ExploredDisagreement[] = [];
  const serial = { created: 0, budget: keyBound(EXPLORER_KEYS, runs) };
  // What the target did against a SHOULD (`KeyReal.departures`): kept with the sequence that showed
  // it, and no cut: the model allows it from then on, and the exploration goes on.
  const departures: Disagreement[] = [];
  const departed = (before: number, counterexample: string): string => {
    const found = departures.slice(before);
    for (const d of found) disagreements.push({ clause: d.clause, reason: d.reason, evidence: d.evidence, replay: { seed: t.run.seed, counterexample } });
    return found.map((d) => `; ${d.clause} (a SHOULD, allowed from here on), ${d.reason}`).join('');
  };
  let cut = false;
  for (const [index, cover] of KEY_COVER.entries()) {
    const commands = cover();
    sequences++;
    const line = `cover ${index + 1}: ${commands.map(String).join(', ')}`;
    const counterexample = `the cover's sequence ${index + 1}: ${commands.map(String).join(', ')}`;
    const before = departures.length;
    try {
      await runSequence(t, actor, serial, departures, commands);
      explored.push(`${line}: as the model allows${departed(before, counterexample)}`);
    } catch (error) {
      if (!(error instanceof Disagreement)) throw error;
      explored.push(`${line}: ${error.clause}, ${error.reason}${departed(before, counterexample)}`);
      cut = runs > 0;
      if (disagreements.some((d) => d.clause === error.clause)) continue;
      disagreements.push({ clause: error.clause, reason: error.reason, evidence: error.evidence, replay: { seed: t.run.seed, counterexample } });
    }
  }
  if (cut || runs === 0) return { disagreements, cut, sequences, explored };
  // A failure that is no disagreement ends every later run at once, without a request, and goes on up.
  let fatal: unknown = null;
  let failedAt: number | null = null;
  let drawn = 0;
  const details = await t.exploring(() =>
    fc.check(
      fc.asyncProperty(fc.commands(KEY_COMMANDS, { maxCommands: MAX_COMMANDS }), async (commands) => {
        if (fatal) throw fatal;
        if (failedAt !== null && sequences - failedAt >= MAX_SHRINK_RUNS) return;
        sequences++;
        const from = failedAt === null ? `drawn ${++drawn}` : `shrinking ${sequences - failedAt}`;
        // The steps that ran (fast-check leaves out those the model's state did not allow), after the run.
        const line = () => `${from}: ${stepsOf(commands)}`;
        const before = departures.length;
        try {
          await runSequence(t, actor, serial, departures, [OPENING(), ...commands]);
          explored.push(`${line()}: as the model allows${departed(before, stepsOf(commands))}`);
        } catch (error) {
          if (!(error instanceof Disagreement)) fatal = error;
          else {
            failedAt ??= sequences;
            explored.push(`${line()}: ${error.clause}, ${error.reason}${departed(before, stepsOf(commands))}`);
          }
          throw error;
        }
      }),
      { seed: t.run.seed, numRuns: runs },
    ),
  );
  if (fatal) throw fatal;
  if (!details.failed) return { disagreements, cut: false, sequences, explored };
  const found = details.errorInstance;
  if (!(found instanceof Disagreement)) throw found;
  const counterexample = stepsOf(details.counterexample?.[0] ?? []);
  return {
    disagreements: [
      ...disagreements,
      {
        clause: found.clause,
        reason: found.reason,
        evidence: found.evidence,
        replay: { seed: details.seed, path: details.counterexamplePath ?? undefined, counterexample },
      },
    ],
    // The draw stops at its first failure: the sequences it had yet to draw were not run.
    cut: true,
    sequences,
    explored,
  };
}
