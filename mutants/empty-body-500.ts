import { defineMutant } from './mutant.js';

/**
 * A decoder that returns end-of-input for an empty body, and a handler that then reads the payload
 * it never got (Go's `json.Decoder.Decode` gives `io.EOF`, which many handlers check only as "no
 * error"): a POST whose body is empty fails in the handler, as an unexpected fault.
 */
export default defineMutant({
  description: 'answers 500 api_error to a POST whose body is empty',
  breaks: { 'GEN-3': 'warn' },
  modify: ({ app }) => {
    app.addHook('preParsing', async (req, reply) => {
      if (req.method !== 'POST' || req.headers['content-length'] !== '0') return;
      return reply.code(500).send({
        error: { type: 'api_error', code: null, message: 'runtime error: invalid memory address or nil pointer dereference', param: null, path: null },
      });
    });
  },
});
