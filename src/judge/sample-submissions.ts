import { isDeepStrictEqual } from 'node:util';
import { SUBMISSION_CREATION_PATH } from '../broker/submission-cap.js';
import { apiPathOf } from '../http/api-path.js';
import { fromApi, type Exchange } from '../http/exchange.js';
import { profileFact } from '../profile/profile-fact.js';
import type { Profile } from '../profile/profile.js';

/**
 * Headers a plain request of the run carries, which say nothing of the submission: anything
 * else (a condition, a preference, another media type) is a request HTTP or the API may answer
 * otherwise, and is left to the clauses of what it carried.
 */
const PLAIN_HEADERS: ReadonlySet<string> = new Set([
  'accept',
  'accept-encoding',
  'authorization',
  'content-type',
  'content-length',
  'user-agent',
  'host',
  'connection',
]);

interface Shape {
  readonly workspace: string;
  readonly taxonomy: string;
}

/**
 * The workspace and taxonomy of a POST that is SUB-1's request to the letter, with the account's
 * own key: the workspace query parameter alone, naming the body's workspace; a JSON body of
 * `workspace_id`, `taxonomy_id` and one row whose data is the profile's sample row (`{}` where it
 * declares none); no header beyond a plain request's and those every request of the run carries
 * (a gateway's extra headers). Null for any other request.
 */
function sampleSubmission(e: Exchange, profile: Profile, everywhere: ReadonlySet<string>): Shape | null {
  const param = profile.submissions.workspaceQueryParam;
  if (e.request.method !== 'POST' || e.auth !== 'main' || !param || e.request.body === undefined || e.request.truncated) return null;
  let url: URL;
  try {
    url = new URL(e.request.url);
  } catch {
    return null;
  }
  if (apiPathOf(e.request.url) !== SUBMISSION_CREATION_PATH || [...url.searchParams.keys()].join() !== param) return null;
  const headers = Object.entries(e.request.headers).map(([name, value]) => [name.toLowerCase(), value.trim().toLowerCase()] as const);
  if (headers.some(([name]) => !PLAIN_HEADERS.has(name) && !everywhere.has(name))) return null;
  const header = (name: string) => headers.find(([n]) => n === name)?.[1];
  if (!/^application\/json\s*(;\s*charset=utf-8\s*)?$/.test(header('content-type') ?? '')) return null;
  const accept = header('accept');
  if (accept !== undefined && accept !== 'application/json') return null;
  let body: unknown;
  try {
    body = JSON.parse(e.request.body);
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const { workspace_id: workspace, taxonomy_id: taxonomy, rows, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || typeof workspace !== 'string' || typeof taxonomy !== 'string' || url.searchParams.get(param) !== workspace) return null;
  if (!Array.isArray(rows) || rows.length !== 1) return null;
  const row: unknown = rows[0];
  if (typeof row !== 'object' || row === null || Array.isArray(row) || Object.keys(row).join() !== 'data') return null;
  return isDeepStrictEqual((row as { data: unknown }).data, profile.submissions.sampleRow ?? {}) ? { workspace, taxonomy } : null;
}

/**
 * Names of headers every one of `exchanges` carries: the run's own on its submissions (a gateway's
 * extra headers), not those a probe of another clause leaves out.
 */
function carriedByAll(exchanges: readonly Exchange[]): ReadonlySet<string> {
  const sets = exchanges.map((e) => new Set(Object.keys(e.request.headers).map((name) => name.toLowerCase())));
  if (sets.length === 0) return new Set();
  return new Set([...sets[0]!].filter((name) => sets.every((set) => set.has(name))));
}

/**
 * SUB-1 over every submission of the run: each that is SUB-1's request to the letter
 * (`sampleSubmission`), into a workspace and taxonomy where the same key was answered 201 by the
 * API (so that neither is unknown to the account, by the API's own answer), is answered 201. The
 * request may have been sent for another clause (SUB-5's empty data object, alone after a split):
 * it is SUB-1's all the same. A 429 is the budget's answer, not the submission's.
 */
export function sampleSubmissionsCreated(log: readonly Exchange[], profile: Profile): { reason: string; exchange: Exchange }[] {
  // Submissions of the main key the API created: which workspaces and taxonomies it takes, and the headers the run's requests carry.
  const created = log.filter(
    (e) =>
      e.auth === 'main' && e.request.method === 'POST' && e.response?.status === 201 && fromApi(e) && apiPathOf(e.request.url) === SUBMISSION_CREATION_PATH,
  );
  const accepted = new Set(
    created.flatMap((e) => {
      try {
        const body = JSON.parse(e.request.body ?? '') as { workspace_id?: unknown; taxonomy_id?: unknown };
        return [`${String(body.workspace_id)}\n${String(body.taxonomy_id)}`];
      } catch {
        return [];
      }
    }),
  );
  const everywhere = carriedByAll(created);
  const shaped = log.flatMap((e) => {
    if (e.response === undefined || !fromApi(e)) return [];
    const shape = sampleSubmission(e, profile, everywhere);
    return shape ? [{ e, status: e.response.status, shape }] : [];
  });
  const row = profile.submissions.sampleRow === null ? 'an empty data object (the profile declares no sample row)' : "the profile's sample row";
  return shaped
    .filter(({ status, shape }) => status !== 201 && status !== 429 && accepted.has(`${shape.workspace}\n${shape.taxonomy}`))
    .map(({ e, status }) => ({
      reason: `a well-formed submission of one row holding ${row}, into a workspace and taxonomy the same key had submitted to with 201, was answered ${status}, expected 201 (${profileFact(profile, 'submissions.sampleRow')}: is it right?)`,
      exchange: e,
    }));
}
