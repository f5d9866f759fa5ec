import type { LedgerEntry } from '../../broker/ledger.js';
import type { Executed } from './execution.js';

/** The checks done: the run's keys deleted, with no deadline (a 429 is waited out); what is still live. */
export interface TornDown extends Executed {
  /** Keys of the run still live after the teardown (in the ledger), for the last lines. */
  readonly left: readonly LedgerEntry[];
}

/** The teardown stage of a run whose checks ended: every key it created deleted. */
export async function teardownStage(input: Executed): Promise<TornDown> {
  await input.teardown.run();
  return { ...input, left: input.broker.ledger.outstanding('api_key') };
}
