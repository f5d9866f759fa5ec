import { defineMutant } from './mutant.js';

/** A framework's duration in milliseconds put where the document asks for seconds. */
export default defineMutant({
  description: 'Retry-After counts milliseconds (whole digits, so only its size gives it away)',
  breaks: { 'RATE-4': 'fail' },
  // The message states the wait in seconds, which then disagrees with Retry-After.
  collateral: ['RATE-3', 'RATE-5'],
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      const seconds = reply.getHeader('retry-after');
      if (seconds !== undefined) reply.header('retry-after', String(Math.max(1, Number(seconds)) * 1000));
      return payload;
    });
  },
});
