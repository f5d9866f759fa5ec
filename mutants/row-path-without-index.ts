import { defineMutant } from './mutant.js';
import { pathOf, rewriteJson } from './support.js';

/** The validator reports the schema location (`rows.data`), not the instance's (`rows[3].data`). */
export default defineMutant({
  description: "leaves the row index out of path for a fault inside a submission's rows",
  breaks: { 'SUB-3': 'warn' },
  modify: (reference) => {
    rewriteJson(reference, (body, req) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || typeof body?.error?.path !== 'string') return body;
      return { error: { ...body.error, path: body.error.path.replace(/\[\d+\]/g, '') } };
    });
  },
});
