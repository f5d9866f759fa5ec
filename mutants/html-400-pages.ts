import { defineMutant } from './mutant.js';

/** A proxy in front of the API that replaces every 400 with its own HTML page. */
export default defineMutant({
  description: 'answers every 400 with an HTML "Bad Request" page',
  breaks: { 'GEN-1': 'fail', 'ERR-1': 'fail', 'ERR-7': 'warn' },
  collateral: ['GEN-4', 'GEN-5', 'KEY-8'],
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 400) return payload;
      reply.header('content-type', 'text/html; charset=utf-8');
      return '<!DOCTYPE html><html><head><title>400 Bad Request</title></head><body><center><h1>400 Bad Request</h1></center><hr><center>nginx</center></body></html>';
    });
  },
});
