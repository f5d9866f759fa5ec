import { defineMutant } from './mutant.js';
import { pathOf } from './support.js';

/** One route served from a cache of the rate-limit headers: its Remaining never moves. */
export default defineMutant({
  description: "picklist responses repeat the X-RateLimit-Remaining of the key's last other response: it never falls on that route",
  breaks: { 'RATE-8': 'warn' },
  // RATE-8 judges every sequential request of the run: the picklists are walked page by page by
  // PAG's checks, and read in turn with every list by a key of the explorer's (KEY), whose requests
  // no other check's overlap however loaded the machine.
  provokedBy: ['PAG', 'KEY'],
  modify: ({ app }) => {
    const lastByKey = new Map<string, string>();
    app.addHook('onSend', async (req, reply, payload) => {
      const key = req.headers.authorization;
      const remaining = reply.getHeader('x-ratelimit-remaining');
      if (key === undefined || remaining === undefined || reply.statusCode === 429) return payload;
      if (!/picklists/.test(pathOf(req))) lastByKey.set(key, String(remaining));
      else if (lastByKey.has(key)) reply.header('x-ratelimit-remaining', lastByKey.get(key)!);
      return payload;
    });
  },
});
