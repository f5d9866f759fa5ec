import { defineMutant } from '../../mutant.js';
import { notFound } from '../../../reference/errors.js';
import { itemPrefix, pathOf } from '../../support.js';

/** Instances behind the load balancer: the first was warmed after the deploy, the second was not. */
const INSTANCES = 2;

/*
 * How this happens: single-field reads go through a read-through cache, and the deploy pipeline
 * runs a warm-up job that fills it. The autoscaler later adds a second instance, which starts with
 * an empty cache because the warm-up only runs at deploy. The cache's loader is asynchronous: on a
 * miss it schedules the database load and returns what the cache holds now (nothing), which the
 * handler turns into 404. With the load balancer answering in turn, every other field retrieval
 * lands on the cold instance, and there the first lookup of each field is a 404; asked again, it
 * is found. The fields list reads the database directly and is always right.
 */
export default defineMutant({
  description:
    'Every other field retrieval is answered by a scaled-out instance whose field cache starts cold, and there the first lookup of each existing field answers 404 not_found_error, so a field just listed may not be retrievable.',
  breaks: { 'RES-5': 'fail' },
  collateral: [],
  modify: (reference) => {
    const prefix = itemPrefix(reference.state.profile.paths.field);
    if (!prefix) return;
    let retrievals = 0;
    /** What the cold instance has loaded by now, by account and field id. */
    const loaded = new Set<string>();
    reference.app.addHook('preHandler', async (req, reply) => {
      const path = pathOf(req);
      if (req.method !== 'GET' || !path.startsWith(prefix) || path.length === prefix.length) return;
      const instance = retrievals++ % INSTANCES;
      if (instance === 0) return; // the warmed instance: the normal route
      let id: string;
      try {
        id = decodeURIComponent(path.slice(prefix.length));
      } catch {
        return;
      }
      // An id the account does not have is a 404 anyway: the normal route.
      if (id.includes('/') || !req.account.data.fields.some((f) => f.id === id)) return;
      const key = `${req.account.id}:${id}`;
      if (loaded.has(key)) return;
      loaded.add(key);
      return notFound(reply, 'Field');
    });
  },
});
