import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: the row validator reads each row's payload with Rails'
 * `row.require(:data)`, which raises ParameterMissing not only when the key is absent but also when
 * its value is blank, and an empty hash is blank. A row whose `data` is the empty object `{}`
 * (perfectly valid: the document only asks for an object) is answered 400 `missing_param` naming
 * `data`, as if the member had been left out. Rows with at least one member pass.
 */
export default defineMutant({
  description:
    'A submission row whose data is the empty object {} is refused with 400 missing_param (param data), as if data were absent, instead of being accepted.',
  breaks: { 'SUB-1': 'fail', 'SUB-5': 'warn' },
  collateral: ['SUB-2', 'SUB-3', 'SUB-4', 'ERR-3', 'ERR-7'],
  modify: (reference) => {
    reference.app.addHook('preHandler', async (req) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return;
      const body = req.body as { rows?: unknown } | null | undefined;
      if (typeof body !== 'object' || body === null || !Array.isArray(body.rows)) return;
      // The reference's own row loop then answers 400 missing_param at the first such row, after
      // every check that comes before it (query, workspace_id, taxonomy_id, earlier rows).
      for (const row of body.rows as unknown[]) {
        if (typeof row !== 'object' || row === null || Array.isArray(row)) continue;
        const data = (row as { data?: unknown }).data;
        if (typeof data === 'object' && data !== null && !Array.isArray(data) && Object.keys(data).length === 0) {
          delete (row as { data?: unknown }).data;
        }
      }
    });
  },
});
