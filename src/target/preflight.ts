import { ConformanceError } from '../errors.js';
import { TransportFailure, type HttpClient, type HttpResponse } from '../http/client.js';
import type { Profile } from '../profile/profile.js';
import { collections, COLLECTION_NAMES, type CollectionName } from './collections.js';

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
    const location = first.headers.location ?? '(no Location)';
    const signIn = /log-?in|sign-?in|auth|sso|session/i.test(location)
      ? ", which looks like a sign-in page: is the base URL the web app's?"
      : ': is the base URL right?';
    throw new ConformanceError('CONF_TARGET_REDIRECTED', `GET /api/v1/workspaces answered ${first.status} to ${location}${signIn}`);
  }
  if (first.status === 401 || first.status === 403) {
    throw new ConformanceError('CONF_KEY_REJECTED', `CONFORMANCE_API_KEY does not authenticate: GET /api/v1/workspaces answered ${first.status}`);
  }
  await recogniseApi(http, first);
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
    // Submissions are the one collection the run fills itself (SUB-1 creates one): no note then.
    else if (total === 0 && name !== 'submissions') notes.push(`${name} is empty on the target: checks that need one will be skipped`);
  }
  return { collections: found, notes };
}

/**
 * Before any key is created: the base URL serves the API. The document says a browser web app
 * lives beside it, so a base URL that is the app's is a plausible slip: judged as the API it
 * would fail a dozen MUST clauses for a typo. The API answers a list with a JSON object holding
 * `items` (the pagination envelope; its details are PAG-1's to judge) or a JSON error envelope;
 * any one of the three document lists doing so is enough.
 */
async function recogniseApi(http: HttpClient, first: HttpResponse): Promise<void> {
  if (speaksApi(first)) return;
  for (const path of ['/api/v1/governance_models', '/api/v1/records']) {
    if (speaksApi(await reach(http, () => http.get(path)))) return;
  }
  throw new ConformanceError('CONF_TARGET_NOT_API', `GET /api/v1/workspaces ${notApi(first)}`);
}

function speaksApi(res: HttpResponse): boolean {
  const body = res.json as Record<string, unknown> | undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const error = body.error as Record<string, unknown> | undefined;
  return Array.isArray(body.items) || (typeof error === 'object' && error !== null && typeof error.type === 'string');
}

/** What came back instead of the API, in words, with the likely slip. */
function notApi(res: HttpResponse): string {
  const type = res.headers['content-type'] ?? 'no Content-Type';
  const answered = `answered ${res.status} ${type}`;
  if (/html/i.test(type) || /^\s*<(!doctype|html)/i.test(res.text.slice(0, 200))) return `${answered}: is the base URL the web app's?`;
  const body = res.json;
  if (body !== undefined && typeof body === 'object' && body !== null) {
    const members = Array.isArray(body) ? 'an array' : `members ${Object.keys(body).slice(0, 5).join(', ') || '(none)'}`;
    return `${answered}, JSON that is neither a pagination envelope nor an error envelope (${members}): is the base URL the API's?`;
  }
  return `${answered}, which is not JSON: is the base URL the API's?`;
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
