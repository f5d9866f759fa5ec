import type { Ledger } from '../broker/ledger.js';
import type { HttpClient } from '../http/client.js';
import type { Profile } from '../profile/profile.js';
import type { Output } from './run.js';

/**
 * Deletes what the run created and did not delete again (keys, from the ledger), also when
 * checks failed or the target misbehaved. Called once at the end of every run.
 */
export async function cleanupCreated(_http: HttpClient, _ledger: Ledger, _profile: Profile, _io: Output): Promise<void> {
  // Filled in by the key lifecycle work (issue 5).
}
