import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: the submission controller binds its query string to a DTO class whose property
 * is `workspaceId`, exposed on the wire as `workspace_id` (class-transformer's
 * `@Expose({ name: 'workspace_id' })`). class-validator reports errors by property name, not by the
 * exposed name, so the 400 for the missing query parameter (and the 422 for a bad one) says
 * `param: "workspaceId"`, a name the deployment's profile never declares and the request never
 * used. Body fields are validated by a plain schema and keep their wire names.
 */

/** The DTO property a snake_case wire name is bound to. */
const camel = (name: string): string => name.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());

export default defineMutant({
  description:
    'Errors for the submission workspace query parameter (400 missing_param when omitted, 422 when invalid) name it in param by its internal camelCase property "workspaceId" instead of the declared "workspace_id".',
  breaks: { 'ERR-7': 'warn' },
  collateral: ['SUB-2'],
  modify: (reference) => {
    const wire = reference.state.profile.submissions.workspaceQueryParam ?? 'workspace_id';
    const property = camel(wire);
    if (property === wire) return;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || typeof payload !== 'string') return payload;
      if (reply.statusCode !== 400 && reply.statusCode !== 422) return payload;
      let body: { error?: { param?: unknown; path?: unknown; message?: unknown } };
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      const error = body.error;
      // The query parameter's errors have no body path; the body's own workspace_id errors keep theirs.
      if (typeof error !== 'object' || error === null || error.param !== wire || error.path !== null) return payload;
      error.param = property;
      if (typeof error.message === 'string') error.message = error.message.split(wire).join(property);
      return JSON.stringify(body);
    });
  },
});
