import { ConformanceError } from '../errors.js';
import { TransportFailure, type HttpClient, type HttpResponse } from '../http/client.js';
import type { Profile } from '../profile/profile.js';
import { collections, COLLECTION_NAMES, type CollectionName } from '../target/collections.js';

export interface CollectionState {
  readonly path: string;
  /** Status of `GET path`; null when it did not answer. */
  readonly status: number | null;
  /** total_count as the target said it; null when the answer was no envelope. */
  readonly total: number | null;
  /** Ids on the first page (up to 100). */
  readonly ids: readonly string[];
}

/** What the preflight learnt of the target before any check. */
export interface Preflight {
  readonly collections: Partial<Record<CollectionName, CollectionState>>;
  /** Plain sentences about what will not be exercisable. */
  readonly notes: readonly string[];
}

/**
 * Before any check: the target answers, the keys authenticate, the profile's paths exist, and
 * which collections hold data. A target that cannot be judged at all stops the run (exit 2).
 */
export async function preflight(http: HttpClient, profile: Profile, hasOtherKey: boolean): Promise<Preflight> {
  const first = await reach(http, () => http.get('/api/v1/workspaces'));
  if (first.status >= 300 && first.status < 400) {
    throw new ConformanceError(
      'CONF_TARGET_REDIRECTED',
      `GET /api/v1/workspaces answered ${first.status} to ${first.headers.location ?? '(no Location)'}: is the base URL right?`,
    );
  }
  if (first.status === 401 || first.status === 403) {
    throw new ConformanceError('CONF_KEY_REJECTED', `CONFORMANCE_API_KEY does not authenticate: GET /api/v1/workspaces answered ${first.status}`);
  }
  if (hasOtherKey) {
    const other = await reach(http, () => http.get('/api/v1/workspaces', { auth: 'other' }));
    if (other.status === 401 || other.status === 403) {
      throw new ConformanceError(
        'CONF_KEY_REJECTED',
        `CONFORMANCE_OTHER_ACCOUNT_API_KEY does not authenticate: GET /api/v1/workspaces answered ${other.status}`,
      );
    }
  }
  const notes: string[] = [];
  const found: Partial<Record<CollectionName, CollectionState>> = {};
  const endpoints = collections(profile);
  for (const name of COLLECTION_NAMES) {
    const path = endpoints[name].list;
    if (!path) continue;
    const res = await reach(http, () => http.get(path, { query: { limit: 100 } }));
    const body = res.json as { total_count?: unknown; items?: unknown } | undefined;
    const total = typeof body?.total_count === 'number' ? body.total_count : null;
    const idField = endpoints[name].idField ?? 'id';
    const ids = Array.isArray(body?.items)
      ? body.items.map((item) => (item as Record<string, unknown> | null)?.[idField]).filter((id): id is string => typeof id === 'string')
      : [];
    found[name] = { path, status: res.status, total, ids };
    if (res.status !== 200) notes.push(`${path} answered ${res.status}: checks that list ${name} will fail or be skipped`);
    else if (total === 0) notes.push(`${name} is empty on the target: checks that need one will be skipped`);
  }
  return { collections: found, notes };
}

async function reach(http: HttpClient, send: () => Promise<HttpResponse>): Promise<HttpResponse> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof TransportFailure) {
      throw new ConformanceError('CONF_TARGET_UNREACHABLE', `${http.baseUrl} does not answer: ${error.message}`);
    }
    throw error;
  }
}
