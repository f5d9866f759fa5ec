import { defineMutant } from '../../mutant.js';
import { rewriteJson } from '../../support.js';

/** snake_case to camelCase, the way the request mapper turns wire names into model names. */
const camel = (name: string): string => name.replace(/_([a-z0-9])/g, (_match, next: string) => next.toUpperCase());

/*
 * How this happens: the API moves its validation onto the shared schema library of the web app.
 * Requests are mapped onto the web app's camelCase models on entry (`workspace_id` becomes
 * `workspaceId`, query parameters included), and the library reports the offending field by its
 * model name. Nobody maps the names back for the API's error envelope, so `param` (and the field
 * part of `path`) say `workspaceId` and `taxonomyId` where the client sent `workspace_id` and
 * `taxonomy_id`. One-word inputs (`rows`, `data`, `name`, `page`, `limit`) are unchanged, which is
 * what the reviewers looked at; the manual tests checked statuses and codes, and a camelCase name
 * "obviously" meant the same field.
 */
export default defineMutant({
  description:
    'Error envelopes name offending inputs by their camelCase model names (workspaceId, taxonomyId) instead of the snake_case names the client sent.',
  breaks: { 'SUB-2': 'fail', 'ERR-7': 'warn' },
  collateral: ['ERR-4', 'SUB-3'],
  modify: (reference) => {
    rewriteJson(reference, (body) => {
      const error = (body as { error?: { param?: unknown; path?: unknown } } | null)?.error;
      if (error && typeof error === 'object') {
        if (typeof error.param === 'string') error.param = camel(error.param);
        if (typeof error.path === 'string') error.path = camel(error.path);
      }
      return body;
    });
  },
});
