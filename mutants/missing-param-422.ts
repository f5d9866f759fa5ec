import { defineMutant } from './mutant.js';

/** "Unprocessable" for every refused body: a missing required parameter comes back 422 too. */
export default defineMutant({
  description: 'answers 422 instead of 400 to a request missing a required parameter',
  breaks: { 'ERR-3': 'fail' },
  collateral: ['KEY-8'],
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode === 400 && typeof payload === 'string' && payload.includes('"missing_param"')) reply.code(422);
      return payload;
    });
  },
});
