import { defineMutant } from './mutant.js';

/** A framework default left on: 404s come back as an HTML page. */
export default defineMutant({
  description: 'answers every 404 with the web framework\'s HTML "Not Found" page',
  // The 404 for a NUL byte in the path is HTML too: GEN-3 warns about it, as about a front end's.
  breaks: { 'GEN-1': 'fail', 'ERR-1': 'fail', 'GEN-3': 'warn' },
  collateral: ['ERR-5', 'ERR-8', 'ERR-9', 'AUTH-6', 'KEY-6', 'PAG-9', 'SUB-1', 'SUB-2', 'SUB-3', 'SUB-5'],
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 404) return payload;
      reply.header('content-type', 'text/html; charset=utf-8');
      return '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>';
    });
  },
});
