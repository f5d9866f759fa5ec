import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the service keeps its rows in MySQL 8, whose default collation
 * for `utf8mb4` columns is `utf8mb4_0900_ai_ci`: accent-insensitive, case-insensitive, NO PAD. Its
 * identifiers are `VARCHAR` primary keys (`rec_a0001c`, `ws_a…`, `key_…`) in tables created with
 * the schema's default collation, so `SELECT … FROM records WHERE account_id = ? AND id = ?`
 * compares under that collation: `REC_A0001C`, `rec_a0001C` and `ｒｅｃ_ａ0001ｃ` (full-width)
 * find the row `rec_a0001c`, and the row comes back with its own id. The same goes for the
 * foreign keys a submission names (`workspace_id`, `taxonomy_id`) and for the submission list's
 * `WHERE workspace_id = ?` filter. It is the everyday behaviour of a Rails, Laravel or Spring
 * service on MySQL (and of .NET on SQL Server, whose default collation
 * `SQL_Latin1_General_CP1_CI_AS` is case-insensitive too); GitHub's REST API answers
 * `/repos/OCTOCAT/HELLO-WORLD` with the canonical `octocat/Hello-World` in the same spirit. The
 * unique index on each id is under the same collation, so no two ids of a table differ only by
 * case or accents. The API keys' secrets are not compared this way: a key is found by the SHA-256
 * of the whole token, so a key with one letter's case changed hashes to another value and is
 * unknown (401), as before.
 *
 * Why it is conformant:
 * - Resources and their fields: an `id` is a string "identifier"; its format, and so which
 *   spellings name the same resource, is not stated (open point `id-format`). Every id the
 *   service issues is in lower case ASCII; a spelling that the collation equates with one names
 *   that resource, and a resource that exists is answered 200 with its own, canonical id. A
 *   spelling that equates with no id of the key's account is 404 `not_found_error`, code null,
 *   param null, as the reference (Errors, 5; ERR-5, ERR-9): "resource does not exist or is not
 *   reachable by the key". (AUTH-3's "its letters' case changed" is about keys, which stay exact.)
 *   Two readings are open here: an id as an exact string (another case is another, missing, id)
 *   or as an identifier compared the way the service's store compares it. The document fixes
 *   neither (it states no comparison, and RFC 3986 6.1 lets a server serve one resource at many
 *   URIs); this variant takes the second, the one MySQL and SQL Server deployments get by default.
 * - RES-4, RES-7: every listed resource is retrieved by the id the list shows, and equals its
 *   list item. RES-6: ids are unique, case and accents aside even.
 * - AUTH-6: lookups stay scoped to the key's account; another account's ids (`rec_b…`, `ws_b…`)
 *   equate with none of the main account's, in any case, so they stay 404 and out of its lists.
 * - KEY-5, KEY-6: deleting a key by its id revokes it at once; deleting it again is 404.
 * - Submissions (SUB-1, SUB-2, SUB-4, ERR-3): a workspace or taxonomy id sent in another case is
 *   the same reference and is stored as the row's own id; the list filters compare the same way,
 *   so a filter still only narrows and `total_count` counts what matches. Omitted fields are 400,
 *   values of the wrong type or naming nothing are 422 or 404, exactly as the reference: only
 *   strings are compared, and the empty string stays empty.
 */

/**
 * The primary-level comparison key of utf8mb4_0900_ai_ci, as far as this deployment needs it:
 * compatibility forms (full-width letters) folded, accents dropped, case folded, `ß` = `ss`. Every
 * id the service issues is its own key, so the row a comparison finds is the one whose id is the
 * key of what was sent.
 */
function collationKey(value: string): string {
  return value.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/ß/g, 'ss');
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export default defineVariant({
  description:
    "ids are VARCHAR keys under MySQL's default utf8mb4_0900_ai_ci collation: a retrieval, a key deletion, a submission's workspace and taxonomy ids and the submission filters match an id whatever the case or accents of the spelling sent (REC_A0001C finds rec_a0001c, answered with its own id); key secrets stay exact (hashed)",
  openPoint: 'id-format',
  atRisk: ['ERR-5', 'ERR-9', 'RES-4', 'RES-6', 'RES-7', 'AUTH-6', 'KEY-5', 'KEY-6', 'SUB-1', 'SUB-2', 'SUB-4', 'ERR-3'],
  modify: ({ app, state }) => {
    const settings = state.profile.submissions;
    const queryParam = settings.workspaceQueryParam ?? 'workspace_id';
    const filters = settings.listFilters ?? { workspace: 'workspace_id', taxonomy: 'taxonomy_id' };
    const listRoute = state.profile.paths.submissionList?.replace('{id}', ':id') ?? null;
    /** Replaces a string member by its collation key; anything else (absent, empty, another type) is left to the routes. */
    const fold = (holder: Record<string, unknown>, member: string | null) => {
      if (member === null) return;
      const value = holder[member];
      if (typeof value === 'string' && value !== '') holder[member] = collationKey(value);
    };

    // After the body is parsed, before any route looks a row up.
    app.addHook('preHandler', async (req) => {
      const params = req.params as Record<string, unknown> | undefined;
      if (isObject(params)) fold(params, 'id');
      const url = req.routeOptions.url;
      const query = req.query as Record<string, unknown> | undefined;
      if (req.method === 'POST' && url === '/api/v1/submissions') {
        if (isObject(query)) fold(query, queryParam);
        if (isObject(req.body)) {
          fold(req.body, 'workspace_id');
          fold(req.body, 'taxonomy_id');
        }
      } else if (req.method === 'GET' && listRoute !== null && url === listRoute && isObject(query)) {
        fold(query, filters.workspace);
        fold(query, filters.taxonomy);
      }
    });
  },
});
