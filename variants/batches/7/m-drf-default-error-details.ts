import type { FastifyReply, FastifyRequest } from 'fastify';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: Django REST framework's default error details, as a DRF
 * service writes them when its `EXCEPTION_HANDLER` wraps them in the API's envelope. DRF gives
 * every failure a human sentence and a machine code (`ErrorDetail.code`, exposed by
 * `exc.get_full_details()`), and a team that maps them onto `{error: {type, code, message, param,
 * path}}` gets DRF's words and DRF's codes unless it overrides them:
 * - throttling (`exceptions.Throttled`): "Request was throttled. Expected available in 37
 *   seconds.", and with a wait of one second the singular, "Expected available in 1 second."
 *   (`extra_detail_singular` / `extra_detail_plural`, both `{wait}` = `math.ceil(wait)`, the same
 *   number DRF writes into `Retry-After`);
 * - authentication (`TokenAuthentication` with `keyword = "Bearer"`): "Authentication credentials
 *   were not provided." (no header, or another scheme), "Invalid token header. No credentials
 *   provided." (`Bearer` alone), "Invalid token header. Token string should not contain spaces."
 *   (extra parts), "Invalid token." (unknown or revoked);
 * - `PermissionDenied`: "You do not have permission to perform this action.", code
 *   `permission_denied`; `Http404` from `get_object_or_404`: "No Workspace matches the given
 *   query."; an unrouted path: "Not found."; `MethodNotAllowed`: 'Method "PUT" not allowed.';
 *   `UnsupportedMediaType`: 'Unsupported media type "text/plain" in request.', `ParseError`:
 *   "Malformed request.", code `parse_error`;
 * - field validation: `IntegerField` ("A valid integer is required." `invalid`, "Ensure this
 *   value is greater than or equal to 1." `min_value`, "Ensure this value is less than or equal
 *   to 10000." `max_value`), `CharField` ("This field may not be blank." `blank`, "This field may
 *   not be null." `null`, "Not a valid string." `invalid`), `PrimaryKeyRelatedField` ('Invalid
 *   pk "x" - object does not exist.' `does_not_exist`, "Incorrect type. Expected pk value,
 *   received int." `incorrect_type`), `ListField` ('Expected a list of items but got type "str".'
 *   `not_a_list`), `DictField` ('Expected a dictionary of items but got type "str".'
 *   `not_a_dict`), a nested serializer ("Invalid data. Expected a dictionary, but got str."
 *   `invalid`), and "This field is required." for a missing one.
 * The careful team keeps the codes the document names where it names them: `missing_param` for
 * a missing parameter (instead of DRF's `required`), `rate_limit_exceeded` on the 429 (instead of
 * `throttled`), null for authentication and not-found errors (instead of `not_authenticated`,
 * `authentication_failed`, `not_found`); it keeps DRF's codes for everything the document leaves
 * open, and DRF's sentences everywhere. Types, statuses, params, paths, headers and every
 * envelope's shape are the reference's.
 *
 * Why it is conformant:
 * - Errors, Error object: `message` is "human-readable text; its wording may change between
 *   versions, so do not branch on it"; Versioning 2: "Message texts may change". Any sentence is
 *   allowed; ERR-1 asks only that it be a string.
 * - Limits and RATE-3: the 429's message "states the wait in seconds": "Expected available in 37
 *   seconds." and "Expected available in 1 second." both state the wait as a number of seconds,
 *   the same number as `Retry-After` (within 1, as RATE-3 asks). "1 second" is English for a
 *   wait of one second; a check that looks only for "<n> seconds" is too narrow. Code
 *   `rate_limit_exceeded`, param null, Retry-After and the X-RateLimit-* headers unchanged
 *   (RATE-3, RATE-4, RATE-9).
 * - Errors, rule 2: the complete list of codes is not shown (open point `error-codes`); the named
 *   ones are kept where they apply: `missing_param` on every 400 for a missing parameter (ERR-7),
 *   `rate_limit_exceeded` on every 429 (RATE-3), code null on 401s for unknown or revoked keys
 *   (AUTH-8) and on every 404 (ERR-5, ERR-9). `invalid`, `min_value`, `max_value`, `blank`,
 *   `null`, `does_not_exist`, `incorrect_type`, `not_a_list`, `not_a_dict`, `parse_error`,
 *   `permission_denied` are codes the document leaves open.
 * - ERR-2, ERR-4, PAG-3..PAG-5, SUB-2, SUB-3, ERR-3, KEY-8: statuses, types, `param` (never null
 *   on a 422) and `path` are the reference's, untouched.
 * - AUTH-7: the 401 for a missing or malformed header keeps its shape and `authentication_error`
 *   as `error.type`; only its message is DRF's.
 * - No declared fact changes: the profile is the reference's.
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Python's name for the type of a parsed JSON value, as DRF's messages print it. */
function pyType(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return Array.isArray(value) ? 'list' : 'dict';
}

function set(error: Json, code: string | null | undefined, message: string): void {
  if (code !== undefined && 'code' in error) error.code = code;
  error.message = message;
}

/** `IntegerField(min_value=1[, max_value=10000])` on a page or limit value the reference refused. */
function pageParam(error: Json, raw: unknown, name: string): void {
  if (typeof raw !== 'string' || !/^[0-9]+$/.test(raw)) return set(error, 'invalid', 'A valid integer is required.');
  if (BigInt(raw) < 1n) return set(error, 'min_value', 'Ensure this value is greater than or equal to 1.');
  if (name === 'limit') return set(error, 'max_value', 'Ensure this value is less than or equal to 10000.');
  set(error, 'invalid', 'A valid integer is required.');
}

/** `CharField` on a string input the reference refused. */
function charField(error: Json, value: unknown): void {
  if (value === null) return set(error, 'null', 'This field may not be null.');
  if (typeof value === 'string') return set(error, 'blank', 'This field may not be blank.');
  set(error, 'invalid', 'Not a valid string.');
}

/** The value at a reference `path` such as `rows[3].data` inside the request body. */
function at(body: unknown, path: string): unknown {
  let value: unknown = body;
  for (const step of path.match(/[^.[\]]+/g) ?? []) {
    if (Array.isArray(value) && /^[0-9]+$/.test(step)) value = value[Number(step)];
    else if (isObject(value)) value = value[step];
    else return undefined;
  }
  return value;
}

function reword(error: Json, req: FastifyRequest, reply: FastifyReply, workspaceParam: string): void {
  const status = reply.statusCode;
  const code = error.code;
  const param = typeof error.param === 'string' ? error.param : null;
  const path = typeof error.path === 'string' ? error.path : null;
  const body = req.body;
  const query = (req.query ?? {}) as Json;
  if (status === 401) {
    if ('code' in error) return set(error, undefined, 'Invalid token.');
    const header = req.headers.authorization;
    const parts = header?.trim().split(/\s+/) ?? [];
    if (parts.length === 0 || parts[0]!.toLowerCase() !== 'bearer') return set(error, undefined, 'Authentication credentials were not provided.');
    if (parts.length === 1) return set(error, undefined, 'Invalid token header. No credentials provided.');
    if (parts.length > 2) return set(error, undefined, 'Invalid token header. Token string should not contain spaces.');
    return set(error, undefined, 'Invalid token.');
  }
  if (status === 429) {
    const wait = Number(reply.getHeader('retry-after'));
    if (!Number.isFinite(wait)) return;
    return set(error, undefined, `Request was throttled. Expected available in ${wait} second${wait === 1 ? '' : 's'}.`);
  }
  if (status === 403) return set(error, 'permission_denied', 'You do not have permission to perform this action.');
  if (status === 404) {
    const what = typeof error.message === 'string' ? /^(.+) not found\.$/.exec(error.message) : null;
    return set(error, undefined, what ? `No ${what[1]} matches the given query.` : 'Not found.');
  }
  if (status === 405) return set(error, undefined, `Method "${req.method}" not allowed.`);
  if (status === 415) return set(error, undefined, `Unsupported media type "${req.headers['content-type'] ?? ''}" in request.`);
  if (status === 413) return set(error, undefined, 'Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.');
  if (status >= 500) return set(error, undefined, 'A server error occurred.');
  if (status === 400) {
    if (code === 'missing_param') return set(error, undefined, 'This field is required.');
    if (code === 'invalid_json') return set(error, 'parse_error', 'Malformed request.');
    return set(error, undefined, 'Malformed request.');
  }
  if (status !== 422 || param === null) return;
  if (param === 'page' || param === 'limit') return pageParam(error, query[param], param);
  if (param === 'body') return set(error, 'invalid', `Invalid data. Expected a dictionary, but got ${pyType(body)}.`);
  if (param === workspaceParam && path === null) {
    const raw = query[param];
    return typeof raw === 'string' ? charField(error, raw) : set(error, 'invalid', 'Not a valid string.');
  }
  if (path === null) return;
  const value = at(body, path);
  if (code === 'unknown_id') return set(error, 'does_not_exist', `Invalid pk "${String(value)}" - object does not exist.`);
  if (code === 'mismatch') return set(error, 'invalid', `Does not match the ${workspaceParam} query parameter.`);
  if (param === 'workspace_id' || param === 'taxonomy_id') {
    if (value === null || typeof value === 'string') return charField(error, value);
    return set(error, 'incorrect_type', `Incorrect type. Expected pk value, received ${pyType(value)}.`);
  }
  if (param === 'name') return charField(error, value);
  if (path === 'rows') return set(error, 'not_a_list', `Expected a list of items but got type "${pyType(value)}".`);
  if (/^rows\[[0-9]+\]$/.test(path)) return set(error, 'invalid', `Invalid data. Expected a dictionary, but got ${pyType(value)}.`);
  if (/^rows\[[0-9]+\]\.data$/.test(path)) return set(error, 'not_a_dict', `Expected a dictionary of items but got type "${pyType(value)}".`);
}

export default defineVariant({
  description:
    'Django REST framework\'s default error details in the documented envelope: DRF\'s sentences everywhere (the 429 says "Request was throttled. Expected available in 1 second." / "… in 37 seconds.") and DRF\'s codes (invalid, min_value, max_value, blank, null, does_not_exist, incorrect_type, not_a_list, not_a_dict, parse_error, permission_denied) wherever the document names none; missing_param, rate_limit_exceeded and the null codes are kept',
  openPoint: 'error-codes',
  rateLimits: true,
  atRisk: ['RATE-3', 'AUTH-7', 'AUTH-8', 'ERR-1', 'ERR-4', 'ERR-5', 'ERR-7', 'ERR-9', 'PAG-3', 'PAG-4', 'PAG-5', 'SUB-2', 'SUB-3', 'ERR-3', 'KEY-8', 'AUTH-4'],
  modify: ({ app, state }) => {
    const workspaceParam = state.profile.submissions.workspaceQueryParam ?? 'workspace_id';
    app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
      let parsed: unknown;
      try {
        parsed = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (!isObject(parsed) || !isObject(parsed.error)) return payload;
      reword(parsed.error, req, reply, workspaceParam);
      return JSON.stringify(parsed);
    });
  },
});
