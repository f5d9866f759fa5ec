import { defineMutant } from './mutant.js';
import { beforeHandler } from './support.js';

/** The last-use time is written by the read path's middleware only: a key that only writes never shows a use. */
export default defineMutant({
  description: "updates a key's last-use time on GET requests only: a key used only to create or delete shows none",
  breaks: { 'KEY-3': 'fail' },
  // A key's first use is a read everywhere else in the suite: KEY-7 sees its time move after a read.
  modify: (reference) => {
    /** The last-use time each key had after its last read. */
    const lastRead = new Map<string, string | null>();
    beforeHandler(reference, async (req) => {
      const key = req.apiKey;
      if (!key) return;
      if (req.method === 'GET' || req.method === 'HEAD') lastRead.set(key.id, key.lastUsedAt);
      else key.lastUsedAt = lastRead.get(key.id) ?? null;
    });
  },
});
