import { defineMutant } from './mutant.js';
import { rewriteJson } from './support.js';

/** The 400 is right, but the finer code the document names for it is never sent. */
export default defineMutant({
  description: 'sends code null instead of "missing_param" on the 400 for a missing parameter',
  breaks: { 'ERR-7': 'warn' },
  collateral: ['KEY-8'],
  modify: (reference) => {
    rewriteJson(reference, (body, _req, reply) =>
      reply.statusCode === 400 && body?.error?.code === 'missing_param' ? { error: { ...body.error, code: null } } : body,
    );
  },
});
