import { defineMutant } from './mutant.js';
import { pathOf } from './support.js';

/** A framework default: the create handler returns the new resource with 200, not 201. */
export default defineMutant({
  description: 'answers 200 instead of 201 when a submission is created',
  breaks: { 'SUB-1': 'fail' },
  collateral: ['SUB-4', 'SUB-5'],
  modify: ({ app }) => {
    app.addHook('onSend', async (req, reply, payload) => {
      if (req.method === 'POST' && pathOf(req) === '/api/v1/submissions' && reply.statusCode === 201) reply.code(200);
      return payload;
    });
  },
});
