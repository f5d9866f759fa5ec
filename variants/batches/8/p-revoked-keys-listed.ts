import { invalidParam } from '../../../reference/errors.js';
import { arrayCollection, route, sendPage } from '../../../reference/routes/list.js';
import type { ApiKeyRecord } from '../../../reference/store.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: GitLab's token APIs. `DELETE /personal_access_tokens/:id`
 * (and the project and group access token endpoints) revokes a token at once, and the token is
 * refused from the next request on; but `GET /personal_access_tokens` keeps listing it, with
 * `"revoked": true, "active": false`, so that an owner can see what existed, when it was last used
 * and that it is dead (the UI's "Inactive personal access tokens" table shows the same). A client
 * that wants only live tokens filters: `?revoked=false` or `?state=active` (and `state=inactive`
 * for the dead ones). Audit-minded services (Atlassian's, Okta's token lists, many internal
 * platforms) do the same with a retention period after which the row is purged.
 *
 * Here: deleting a key revokes it immediately (204, as the reference; the very next request with
 * it is 401), and the key list keeps showing it for 30 days after its revocation, with the
 * reference's members (id, name, created_at, last_used_at, the four-character hint) plus
 * `revoked` (boolean), `active` (boolean) and `revoked_at` (date-time or null), which every listed
 * key carries. `?revoked=true|false` and `?state=active|inactive` narrow the list (another value is
 * 422 naming the parameter); without them the list shows live and revoked keys alike, and
 * `total_count` counts both. Deleting a revoked key again is 404 `not_found_error`, as in the
 * reference.
 *
 * Why it is conformant:
 * - Details and open points: "Listing keys returns each key's name and last-use time, never the
 *   secret. Deleting a key revokes it; the token stops working immediately." Every listed key
 *   still has its name and last-use time and no part of its secret (KEY-3, KEY-4: the hint is 4
 *   characters, below the catalogue's 8); revocation is immediate (KEY-5: the next request is 401
 *   `authentication_error`, reference/auth.ts unchanged). The document never says a revoked key
 *   leaves the list: the catalogue's KEY-6 ("a deleted key disappears from the list") is a SHOULD,
 *   an inference, and this variant declares the warning it may give (mayWarn). Its other half,
 *   deleting again is 404 `not_found_error`, holds.
 * - Success statuses and response member names of the key operations are not shown (open point
 *   `key-operations`): the added members `revoked`, `active`, `revoked_at` are allowed, and the
 *   profile's declared members (id, name, last_used_at) are unchanged. KEY-7: a live key's
 *   last-use time still moves forward when it is used.
 * - Pagination, PAG-1, PAG-6, PAG-7, PAG-8: the list is the reference's envelope over the keys it
 *   shows, revoked ones included; `total_count` counts exactly them, the walk sees each once.
 * - Paths and request shapes for listing keys are not shown (`key-paths`): the filters are
 *   optional query parameters; a value that is not one of theirs is 422 `invalid_request_error`
 *   with `param` naming it (ERR-2, ERR-4), and no suite-sent query parameter changes meaning
 *   (page and limit are read as before).
 */

/** How long a revoked key stays listed. */
const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export default defineVariant({
  description:
    'GitLab-style key list: a deleted key is revoked at once but stays in the list for 30 days with revoked: true, active: false and revoked_at; ?revoked= or ?state= narrow the list; deleting it again is 404',
  openPoint: 'key-operations',
  atRisk: ['KEY-6', 'KEY-3', 'KEY-4', 'KEY-5', 'PAG-7', 'PAG-8', 'ERR-4'],
  mayWarn: {
    'KEY-6':
      'a deleted key is revoked at once (KEY-5 holds) but stays in the key list for 30 days, marked revoked: true, active: false; the document never says a revoked key leaves the list (deleting it again is still 404)',
  },
  modify: ({ app, state, behaviour }) => {
    const fields = state.profile.apiKeyFields;
    const listPath = state.profile.paths.apiKeyList;
    const retained = (key: { readonly revokedAtMs: number | null }) => key.revokedAtMs === null || state.now() - key.revokedAtMs < RETENTION_MS;
    behaviour.keyListed = retained;
    if (!listPath) return;
    const listRoute = route(listPath);

    // The reference's list item (reference/routes/keys.ts), plus the key's state.
    const view = (key: ApiKeyRecord): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      if (fields.id) out[fields.id] = key.id;
      if (fields.name) out[fields.name] = key.name;
      out.created_at = key.createdAt;
      if (fields.lastUsedAt) out[fields.lastUsedAt] = key.lastUsedAt;
      out.hint = `…${key.hint}`;
      return withState(key, out);
    };
    const withState = (key: ApiKeyRecord, item: Record<string, unknown>): Record<string, unknown> => ({
      ...item,
      revoked: key.revokedAtMs !== null,
      active: key.revokedAtMs === null,
      revoked_at: key.revokedAtMs === null ? null : new Date(key.revokedAtMs).toISOString(),
    });

    // The list is served here, through the reference's own pagination (page, limit, order, envelope).
    const filters = { revoked: { false: true, true: false }, state: { active: true, inactive: false } } as const;
    app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'GET' || req.routeOptions.url !== listRoute) return;
      const query = req.query as Record<string, unknown>;
      // Each filter given says whether live keys (true) or revoked ones (false) are wanted; all must hold.
      const wanted: boolean[] = [];
      for (const [param, values] of Object.entries(filters)) {
        const raw = query[param];
        if (raw === undefined) continue;
        if (typeof raw !== 'string' || !Object.hasOwn(values, raw)) {
          return invalidParam(reply, param, `${param} must be one of ${Object.keys(values).join(', ')}.`);
        }
        wanted.push(values[raw as keyof typeof values]);
      }
      const keys = [...req.account.keys.values()].filter((k) => retained(k) && wanted.every((live) => live === (k.revokedAtMs === null)));
      return sendPage(state, req, reply, arrayCollection(keys), view);
    });
  },
});
