import type { HttpClient, HttpResponse } from '../http/client.js';
import type { Profile } from '../profile/profile.js';
import type { Attempt } from './outcome.js';
import type { RunContext } from './run-context.js';

/**
 * The face of a check that its helpers judge through (`t.keys`, `t.lists`): its client, the run and
 * the profile, and the ways a check ends. `CheckContext` is one; the helpers take this rather than
 * the context, which makes them, so that neither file imports the other.
 */
export interface CheckJudging {
  readonly run: RunContext;
  readonly profile: Profile;
  readonly http: HttpClient;
  /** A finding, with `evidence`, unless `condition` holds. */
  ensure(condition: unknown, reason: string | (() => string), ...evidence: HttpResponse[]): void;
  skip(reason: string): never;
  notApplicable(reason: string): never;
  /** The body as JSON, or a finding that it is not. */
  json(res: HttpResponse): unknown;
  /** Runs `body` and says how it ended: a value, a finding, or a check that cannot run. */
  attempt<T>(body: () => Promise<T>): Promise<Attempt<T>>;
}
