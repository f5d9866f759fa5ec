import { defineMutant } from './mutant.js';
import { rewriteJson } from './support.js';

/** The web framework's own not-found body is left in place for paths no route matches. */
export default defineMutant({
  description: "answers an unknown path with the framework's JSON 404 body, not the error envelope",
  breaks: { 'ERR-8': 'warn', 'ERR-1': 'fail' },
  modify: (reference) => {
    rewriteJson(reference, (body, req, reply) => {
      if (reply.statusCode !== 404 || typeof body?.error?.message !== 'string' || !body.error.message.startsWith('No endpoint')) return body;
      return { message: `Route ${req.method}:${req.url} not found`, error: 'Not Found', statusCode: 404 };
    });
  },
});
