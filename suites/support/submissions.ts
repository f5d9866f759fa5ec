import { type CheckContext, type HttpResponse, SUBMISSION_CREATION_PATH } from '../../src/kit.js';

// What the errors and submissions suites share about POST /api/v1/submissions: where the valid
// parts of a body come from, how a created submission is tagged and recorded, and how to read a
// `param` or `path` value. Bodies expected to be refused go through `submit`; those expected to be
// created through `createSubmission`, which keeps to the run's cap.

export const SUBMISSIONS_PATH = SUBMISSION_CREATION_PATH;

/** The valid parts of a submission: a workspace, a taxonomy and a row `data` the deployment accepts. */
export interface ValidSubmission {
  readonly workspaceId: string;
  readonly taxonomyId: string;
  /** The profile's sample row, else `{}`; tagged with the run id where any data is accepted. */
  readonly data: Readonly<Record<string, unknown>>;
  /** The profile says any data object is accepted: rows may carry members of the suite's own. */
  readonly anyData: boolean;
  /** The workspace query parameter, or none when the profile leaves its name undeclared. */
  readonly query: Record<string, string>;
  readonly body: { workspace_id: string; taxonomy_id: string; rows: { data: Record<string, unknown> }[] };
}

/**
 * The run's marker inside row data, so that a deployment owner can find what the run wrote. Added
 * only where the profile says any data object is accepted: a deployment that validates rows
 * against its taxonomy would refuse an unknown member.
 */
export function tagged(t: CheckContext, data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return t.profile.submissions.acceptsAnyData === true ? { conformance_run: t.run.runId, ...data } : { ...data };
}

/**
 * The workspaces the run may submit to: the profile's `submissions.workspaceId` alone where it names
 * one (every submission of the run goes there), else those listed (the first is the default).
 */
export function workspaceIds(t: CheckContext): readonly string[] {
  const declared = t.profile.submissions.workspaceId;
  return declared ? [declared] : (t.run.preflight.collections.workspaces?.ids ?? []);
}

/** The profile's taxonomy first, then those listed (the first is the default). */
export function taxonomyIds(t: CheckContext): readonly string[] {
  const declared = t.profile.submissions.taxonomyId;
  const listed = t.run.preflight.collections.taxonomies?.ids ?? [];
  return declared ? [declared, ...listed.filter((id) => id !== declared)] : listed;
}

/** A submission the document says answers 201 (SUB-1); skips the check when the target has no workspace or taxonomy. */
export function validSubmission(t: CheckContext, choice: { workspace?: string | undefined; taxonomy?: string | undefined } = {}): ValidSubmission {
  const workspaceId = choice.workspace ?? workspaceIds(t)[0];
  const taxonomyId = choice.taxonomy ?? taxonomyIds(t)[0];
  if (!workspaceId) t.skip('the target lists no workspace to submit to');
  if (!taxonomyId) t.skip('neither the profile nor a taxonomies list names a taxonomy to submit against');
  const data = tagged(t, (t.profile.submissions.sampleRow as Record<string, unknown> | null) ?? {});
  const param = t.profile.submissions.workspaceQueryParam;
  return {
    workspaceId: workspaceId!,
    taxonomyId: taxonomyId!,
    data,
    anyData: t.profile.submissions.acceptsAnyData === true,
    query: param ? { [param]: workspaceId! } : {},
    body: { workspace_id: workspaceId!, taxonomy_id: taxonomyId!, rows: [{ data: { ...data } }] },
  };
}

/** POSTs a submission; a 2xx is recorded in the ledger at once, whatever the check concludes. */
export async function submit(t: CheckContext, body: unknown, query: Record<string, string>): Promise<HttpResponse> {
  const res = await t.http.send({ method: 'POST', path: SUBMISSIONS_PATH, query, body });
  await recordIfCreated(t, res);
  return res;
}

/**
 * POSTs a submission the target is expected to create, within the run's cap (`--max-submissions`):
 * null, and nothing sent, when the cap leaves no room. Submissions cannot be deleted.
 */
export async function createSubmission(t: CheckContext, body: unknown, query: Record<string, string>): Promise<HttpResponse | null> {
  return t.submissions.create(() => submit(t, body, query));
}

/** Enters a 2xx answer to a submission in the ledger, whatever the request was meant to get. */
export async function recordIfCreated(t: CheckContext, res: HttpResponse): Promise<void> {
  if (res.status >= 200 && res.status < 300) await recordCreated(t, res);
}

/** The id of a created submission, when the (undocumented) response carries one. */
export function submissionId(res: HttpResponse): string | null {
  const id = (res.json as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
}

async function recordCreated(t: CheckContext, res: HttpResponse): Promise<void> {
  await t.created('submission', submissionId(res) ?? '(unknown id)', `conformance_run=${t.run.runId}`);
}

/** Does a `param` or `path` value name an input, as a whole word? `rows[2].data` names `data`. */
export function names(value: unknown, name: string): boolean {
  return typeof value === 'string' && new RegExp(`(^|[^A-Za-z0-9_])${name}([^A-Za-z0-9_]|$)`).test(value);
}

/** Does a `path` carry the row index, as `rows[2]`, `rows.2` or `/rows/2`? */
export function hasIndex(path: unknown, index: number): boolean {
  return typeof path === 'string' && new RegExp(`(^|[^0-9])${index}([^0-9]|$)`).test(path);
}
