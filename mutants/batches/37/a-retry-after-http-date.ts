import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the time-handling cleanup that moved the service from naive local datetimes
 * to UTC ends with a rule for the edge: "every time the API emits is absolute and in UTC". A
 * shared header helper now writes Retry-After as the moment the client may retry, in the HTTP-date
 * form (RFC 9110 allows it, and the team reasons that an absolute UTC instant cannot be misread
 * the way a relative count can, when a response sits in a queue). The message of the 429 is
 * written elsewhere and still says "Retry after N seconds". The team's own SDK parses both forms
 * of Retry-After, so its integration tests keep passing, and in a browser or curl the header looks
 * tidier than before; but the API document promises seconds to wait.
 */
export default defineMutant({
  description: 'On a 429, Retry-After is sent as an HTTP-date (the UTC instant the window resets) instead of a number of seconds.',
  breaks: { 'RATE-4': 'fail' },
  collateral: ['RATE-3', 'RATE-5'],
  modify: ({ app, state }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      const seconds = reply.getHeader('retry-after');
      if (reply.statusCode === 429 && seconds !== undefined) {
        reply.header('retry-after', new Date(state.now() + Number(seconds) * 1000).toUTCString());
      }
      return payload;
    });
  },
});
