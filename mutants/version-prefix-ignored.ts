import { defineMutant } from './mutant.js';

/** A router that ignores the version segment: /api/v2/… and /api/… are served as v1. */
export default defineMutant({
  description: 'serves /api/v2/... and /api/... exactly as /api/v1/...',
  breaks: { 'GEN-2': 'warn' },
  modify: ({ app }) => {
    app.all('/api/*', async (req, reply) => {
      const url = req.url.replace(/^\/api\/(v\d+\/)?/, '/api/v1/');
      if (url.startsWith('/api/v1/') && req.url.startsWith('/api/v1/')) {
        return reply.code(404).send({ error: { type: 'not_found_error', code: null, message: 'Not found.', param: null, path: null } });
      }
      const res = await app.inject({
        method: req.method as 'GET',
        url,
        headers: req.headers as Record<string, string>,
        ...(req.body !== undefined ? { payload: req.body as string } : {}),
      });
      return reply.code(res.statusCode).headers({ 'content-type': res.headers['content-type'] }).send(res.body);
    });
  },
});
