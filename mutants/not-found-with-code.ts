import { defineMutant } from './mutant.js';
import { rewriteJson } from './support.js';

/** A finer code invented for not-found errors, where the document's example has code null. */
export default defineMutant({
  description: 'sends code "resource_missing" on every 404 not_found_error',
  breaks: { 'ERR-5': 'fail', 'ERR-9': 'warn' },
  modify: (reference) => {
    rewriteJson(reference, (body, _req, reply) =>
      reply.statusCode === 404 && body?.error?.type === 'not_found_error' ? { error: { ...body.error, code: 'resource_missing' } } : body,
    );
  },
});
