import { type CheckContext, type HttpResponse, KEY_CREATION_PATH } from '../../src/kit.js';
import { recordIfCreated, SUBMISSIONS_PATH, taxonomyIds, validSubmission, workspaceIds } from './submissions.js';

// The two writes the run makes with a body (API document, Operations): POST /api/v1/submissions
// and POST /api/v1/api_keys, as the checks of the HTTP edges (GEN-3, GEN-4) send them: with odd
// Content-Types, odd sizes, blank strings. Whatever a faulty or lenient target makes of them, a
// key it creates is deleted and a submission it creates is entered in the ledger.

/** One write with a body, and what the run sends to it. */
export interface Write {
  readonly label: string;
  readonly path: string;
  readonly query: Record<string, string>;
  /**
   * A JSON object that a conformant target refuses or, for keys, may accept: a submission whose
   * `workspace_id` is a number (422, SUB-2), so that no submission is created; a key with a name.
   */
  readonly object: (purpose: string) => Record<string, unknown>;
  /** A JSON object of several hundred KiB (many rows, very long strings), refused or accepted as `object` is. */
  readonly large: () => Record<string, unknown>;
  /** Each string field of the write, blanked in an otherwise valid request: `""` or `"   "`. */
  readonly blanked: (blank: string) => readonly { readonly what: string; readonly sent: Sent }[];
}

/** A JSON number where the document wants a string id: every conformant target refuses the submission. */
const NOT_A_STRING_ID = 12345;

/**
 * The size of the large bodies: the document leaves the body size open (Limits: "not shown"), so
 * a target may refuse them (413 or another 4xx), never fail on them (GEN-3). 400 rows of 1000
 * characters, some 400 KiB: within the 1 MiB that common frameworks accept by default.
 */
const LARGE_ROWS = 400;
const LONG_STRING = 'x'.repeat(1000);

/**
 * The writes of the run: a key, and a submission where the target lists a workspace and a
 * taxonomy to submit to. Requests a target `mayAccept` (a key with a name, however sent) go to key
 * creation only where the run can delete what they create (`KeyDeletion.noKeys`).
 */
export function writes(t: CheckContext, options: { mayAccept: boolean }): Write[] {
  const key: Write = {
    label: 'a key',
    path: KEY_CREATION_PATH,
    query: {},
    object: (purpose) => ({ name: t.keys.name(purpose) }),
    // A name of the wrong type, so that a conformant target refuses it and a run of the general
    // rules creates no key (issue 24); the bulk goes beside it, never into a name the ledger keeps.
    large: () => ({ name: NOT_A_STRING_ID, description: LONG_STRING.repeat(LARGE_ROWS) }),
    blanked: (blank) => [{ what: `name ${JSON.stringify(blank)}`, sent: { body: { name: blank } } }],
  };
  const keys = options.mayAccept && t.run.keyDeletion.noKeys ? [] : [key];
  if (workspaceIds(t).length === 0 || taxonomyIds(t).length === 0) return keys;
  const valid = validSubmission(t);
  const param = t.profile.submissions.workspaceQueryParam;
  const refused = { ...valid.body, workspace_id: NOT_A_STRING_ID };
  const submission: Write = {
    label: 'a submission',
    path: SUBMISSIONS_PATH,
    query: valid.query,
    object: () => refused,
    large: () => ({ ...refused, rows: Array.from({ length: LARGE_ROWS }, (_, i) => ({ data: { ...valid.data, row: i, note: LONG_STRING } })) }),
    blanked: (blank) => [
      { what: `workspace_id ${JSON.stringify(blank)}`, sent: { body: { ...valid.body, workspace_id: blank } } },
      { what: `taxonomy_id ${JSON.stringify(blank)}`, sent: { body: { ...valid.body, taxonomy_id: blank } } },
      ...(param
        ? [{ what: `the query parameter ${param} ${JSON.stringify(blank)}`, sent: { body: valid.body, query: { ...valid.query, [param]: blank } } }]
        : []),
    ],
  };
  return [submission, ...keys];
}

/** How a body goes out: as JSON, as raw text, and under which Content-Type (null: none at all). */
export interface Sent {
  readonly body?: unknown;
  readonly rawBody?: string;
  readonly contentType?: string | null;
  readonly query?: Record<string, string>;
}

/**
 * POSTs to `write` and takes charge of what a 2xx created: a key is adopted (redacted, in the
 * ledger) and deleted at once, a submission is entered in the ledger.
 */
export async function post(t: CheckContext, write: Write, sent: Sent): Promise<HttpResponse> {
  const res = await t.http.send({
    method: 'POST',
    path: write.path,
    query: sent.query ?? write.query,
    ...(sent.body !== undefined ? { body: sent.body } : {}),
    ...(sent.rawBody !== undefined ? { rawBody: sent.rawBody } : {}),
    ...(sent.contentType !== undefined ? { contentType: sent.contentType } : {}),
  });
  if (res.status < 200 || res.status >= 300) return res;
  if (write.path === KEY_CREATION_PATH) await t.keys.discard(await t.keys.adopt(res, nameSent(sent)));
  else await recordIfCreated(t, res);
  return res;
}

/** The name a key creation sent, so that adoption never takes it for the key. */
function nameSent(sent: Sent): string | null {
  const body = sent.body ?? (sent.rawBody !== undefined ? safeParse(sent.rawBody) : undefined);
  const name = (body as { name?: unknown } | null | undefined)?.name;
  return typeof name === 'string' ? name : null;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
