import { defineMutant } from '../../mutant.js';
import { invalidParam } from '../../../reference/errors.js';
import { beforeHandler, pathOf } from '../../support.js';

/*
 * How this happens: rows used to be kept whole in a JSONB column, and the deployment's profile,
 * written then, declares that any JSON object is a valid row `data`. A later release moves rows to
 * a flat `row_values(field_name, value)` table for faster exports; a value that is an object (or a
 * list holding objects or lists) has no column to go to, so the new validator refuses it with 422
 * `unsupported_value`. Flat rows, scalars, lists of scalars (multi-select picklists) and empty
 * `data` objects still pass, and so does every example in the integration guide; nobody updated
 * the profile.
 */

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first member of a row's data the flat row table cannot hold: an object, or a list holding an object or a list. */
function nestedMember(data: Record<string, unknown>): string | null {
  for (const [key, value] of Object.entries(data)) {
    if (isObject(value)) return key;
    if (Array.isArray(value) && value.some((item: unknown) => typeof item === 'object' && item !== null)) return key;
  }
  return null;
}

export default defineMutant({
  description:
    'Submission creation refuses (422 unsupported_value) any row whose data holds a nested object or a list of objects, although the profile declares that any data object is accepted; flat rows are still 201.',
  breaks: { 'SUB-5': 'warn' },
  collateral: [],
  modify: (reference) => {
    const settings = reference.state.profile.submissions;
    const param = settings.workspaceQueryParam ?? 'workspace_id';
    const required: readonly string[] = settings.requiredBodyFields ?? ['workspace_id', 'taxonomy_id', 'rows'];
    const names = (id: unknown, list: readonly { id: string }[]): boolean => typeof id === 'string' && list.some((item) => item.id === id);
    beforeHandler(reference, async (req, reply) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      // Every other fault of the request is the reference's to answer (400, 404, 422): the new check runs last.
      const { workspaces, taxonomies } = req.account.data;
      const queried = (req.query as Record<string, unknown>)[param];
      if (queried === undefined ? settings.workspaceQueryParamRequired !== false : !names(queried, workspaces)) return;
      const body = req.body;
      if (!isObject(body) || required.some((field) => !(field in body))) return;
      if ('workspace_id' in body && (!names(body.workspace_id, workspaces) || (queried !== undefined && body.workspace_id !== queried))) return;
      if ('taxonomy_id' in body && !names(body.taxonomy_id, taxonomies)) return;
      const rows = body.rows;
      if (!Array.isArray(rows)) return;
      const datas: Record<string, unknown>[] = [];
      for (const row of rows as unknown[]) {
        if (!isObject(row) || !isObject(row.data)) return;
        datas.push(row.data);
      }
      for (const [index, data] of datas.entries()) {
        const key = nestedMember(data);
        if (key === null) continue;
        const path = `rows[${index}].data.${key}`;
        return invalidParam(reply, 'data', `${path} must be a scalar or a list of scalars.`, path, 'unsupported_value');
      }
      return;
    });
  },
});
