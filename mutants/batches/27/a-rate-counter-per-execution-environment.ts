import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the API now runs as one serverless function behind the platform's HTTP
 * gateway. The rate limiter is the same in-memory fixed-window Map as on the old long-lived
 * server, but now each execution environment of the function has its own Map. The platform
 * gives an environment one request at a time and cold-starts another whenever requests overlap,
 * so an environment counts only the requests it served itself. Sequential traffic always lands on
 * the one warm environment and is limited exactly (the team's test is a loop of 101 awaited
 * requests: the last one is 429). A client that sends requests in parallel spreads them over
 * several environments, each with a fresh budget, and goes far past the ceiling without a 429;
 * the same happens to the per-IP budget of requests without a key.
 */
export default defineMutant({
  description:
    'Rate-limit counters live in each function execution environment; concurrent requests are spread over freshly started environments, so a key (or an anonymous IP) sending requests in parallel exceeds its ceiling without a 429.',
  breaks: { 'RATE-3': 'fail', 'RATE-7': 'fail' },
  collateral: ['RATE-5', 'RATE-6', 'RATE-8'],
  modify: (reference) => {
    const environments: { busy: boolean }[] = [];
    const serving = new AsyncLocalStorage<number>();
    reference.app.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      if (!(req.url ?? '').startsWith('/api/')) return;
      // A warm idle environment if there is one, else a cold start.
      let index = environments.findIndex((e) => !e.busy);
      if (index < 0) index = environments.push({ busy: false }) - 1;
      const environment = environments[index]!;
      environment.busy = true;
      const release = () => {
        environment.busy = false;
      };
      res.once('finish', release);
      res.once('close', release);
      serving.enterWith(index);
    });
    const { limiter } = reference.state;
    const hit = limiter.hit.bind(limiter);
    const forget = limiter.forget.bind(limiter);
    limiter.hit = (bucket, ceiling) => hit(`${bucket}@env${serving.getStore() ?? 0}`, ceiling);
    limiter.forget = (bucket) => {
      forget(bucket);
      for (let i = 0; i < Math.max(1, environments.length); i++) forget(`${bucket}@env${i}`);
    };
  },
});
