import { bucketOfCredential } from '../../http/client.js';
import { bucketOf } from '../../http/request.js';
import { probeConventionalDeletion, type KeyDeletion } from '../../keys/deletion.js';
import { createKeyPool, type KeyPool } from '../../keys/pool.js';
import { planLine } from '../schedule-words.js';
import type { Planned } from './plan.js';

/** The keys the checks run with: how the run deletes the ones it creates, and the pool its work is spread over. */
export interface Equipped extends Planned {
  readonly keyDeletion: KeyDeletion;
  readonly pool: KeyPool;
  /** The pacing buckets of the main account's keys, the configured one first: the heartbeat's estimate counts down on them. */
  readonly mainBuckets: readonly string[];
  /** The second account's key's pacing bucket, where there is one: the estimate counts its windows too. */
  readonly otherBucket: string | null;
}

/**
 * The keys stage, the run's first writes: where the profile declares no key path and the plan
 * says so, the key deletion probe (`keys/deletion.ts`); then the key pool of the plan's size
 * (`keys/pool.ts`), and the plan's line.
 */
export async function keysStage(input: Planned): Promise<Equipped> {
  const { plan, target, broker, teardown, io } = input;
  const port = { http: input.http, broker, profile: target.loaded.profile, keyPrefix: input.keyPrefix, runId: input.runId, baseUrl: target.baseUrl };
  if (plan.probesDeletion) {
    const found = await probeConventionalDeletion(port);
    teardown.deleteWith(found);
    if (found.noKeys) io.out(`  note: ${found.noKeys}`);
    else if (found.source === 'conventional')
      io.out(`  note: the profile declares no key path; keys the run creates are deleted at ${found.path}, which revoked a probe key`);
  }
  const keyDeletion = teardown.deletion;
  const pool = await createKeyPool({ ...port, keyDeletion, size: plan.schedule.keys });
  if (pool.note) io.out(`  note: ${pool.note}`);
  const mainBuckets = [bucketOfCredential('main', target.keys), ...pool.keys.map((key) => bucketOf(`Bearer ${key}`))];
  const otherBucket = target.keys.other !== null ? bucketOfCredential('other', target.keys) : null;
  io.out(`  ${planLine(plan.schedule)}`);
  return { ...input, keyDeletion, pool, mainBuckets, otherBucket };
}
