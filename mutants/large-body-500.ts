import { defineMutant } from './mutant.js';

/** A proxy buffer of 256 KiB in front of the API: a larger body overflows it and the proxy answers 500. */
export default defineMutant({
  description: 'answers 500 api_error to a request body larger than 256 KiB',
  breaks: { 'GEN-3': 'warn' },
  // SUB-5 sends its generated rows many to a submission, up to 512 KB: a batch over the buffer is
  // answered 500 too, a true finding on well-formed rows, though each half passes alone.
  collateral: ['SUB-5'],
  modify: ({ app }) => {
    app.addHook('onRequest', async (req, reply) => {
      if (Number(req.headers['content-length'] ?? 0) <= 256 * 1024) return;
      await reply.code(500).send({ error: { type: 'api_error', code: null, message: 'Request buffer overflow.', param: null, path: null } });
    });
  },
});
