import { defineMutant } from '../../mutant.js';

/*
 * How this happens: unknown paths fall through to the application's JSON not-found handler, but a
 * known path requested with a method it does not support is answered by the router's built-in
 * 405 handler, which writes a plain-text "Method Not Allowed" body; nobody wired it to the
 * application's error envelope.
 */
export default defineMutant({
  description:
    'A known endpoint requested with an unsupported method (e.g. DELETE /api/v1/workspaces) is answered 405 with a plain-text "Method Not Allowed" body instead of JSON.',
  breaks: { 'GEN-1': 'fail', 'ERR-1': 'fail' },
  collateral: ['GEN-5', 'ERR-2', 'ERR-8'],
  modify: (reference) => {
    reference.app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 405) return payload;
      reply.header('content-type', 'text/plain; charset=utf-8');
      return 'Method Not Allowed';
    });
  },
});
