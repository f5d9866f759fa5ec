import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { referenceProfile, startReference } from '../reference/server.js';
import { Broker } from '../src/broker/broker.js';
import { RemoteBroker } from '../src/broker/remote.js';
import { serveBroker } from '../src/broker/channel.js';
import { closeDispatcher, HttpClient } from '../src/http/client.js';
import { readReport, runCli } from '../test/support/cli.js';
import { machinePace } from './machine-pace.js';
import { paginationWalk } from './pagination-walk.js';

// `npm run bench`: figures, not a timed test. Prints the local full run's wall time (median of
// several runs) and what the harness costs per request beside a bare undici loop.

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(2)} ms`;

async function fullRuns(): Promise<void> {
  const times: number[] = [];
  let requests = 0;
  const paceBefore = machinePace();
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    // As a user starts it: a process of its own.
    const result = await runCli(['--seed', '1'], {}, { process: true });
    times.push(performance.now() - started);
    if (result.exitCode !== 0) throw new Error(`run ${i + 1} exited ${result.exitCode}: ${result.stderr}`);
    requests = readReport(result).environment.requests;
  }
  console.log(
    `full run against the embedded reference: median ${(median(times) / 1000).toFixed(2)} s over ${RUNS} runs (${times.map((t) => (t / 1000).toFixed(2)).join(', ')} s), ${requests} requests, ${runtime()}`,
  );
  console.log(
    `  the machine's pace: a fixed piece of CPU work took ${paceBefore.toFixed(1)} ms before these runs and ${machinePace().toFixed(1)} ms after (the slower, the slower every figure)`,
  );
}

/**
 * The Node the figures were taken on, beside the versions the package supports: the same run
 * differs by a tenth or more between them (docs/running.md).
 */
function runtime(): string {
  const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };
  return `Node ${process.versions.node} (package.json engines: node ${engines.node})`;
}

/** The harness path a worker takes (broker acquire + record over the channel) beside bare undici. */
async function perRequestCost(): Promise<void> {
  const base = referenceProfile();
  // A ceiling no loop reaches, so that pacing never waits and only the harness's cost shows.
  const reference = await startReference({ profile: { ...base, limits: { ...base.limits, perKeyPerMinute: 1e9, windowSeconds: 60 } } });
  const broker = new Broker({ keyPrefix: 'sk_', ledgerFile: null, pacer: { perKey: 1e9, anonymous: 20, windowMs: 60_000, marginMs: 30 } });
  broker.addConfiguredSecret(reference.keys.main);
  const served = await serveBroker(broker);
  const remote = new RemoteBroker(served.address);
  const client = new HttpClient({ baseUrl: reference.url, keys: { main: reference.keys.main, other: null }, extraHeaders: [], hooks: remote });
  const agent = new Agent({ connections: 16 });
  const paths = Array.from({ length: REQUESTS }, (_, i) => `/api/v1/records?limit=10&page=${(i % 25) + 1}`);
  try {
    for (const path of paths.slice(0, 200)) await client.get(path.split('?')[0]!, { rawQuery: path.split('?')[1] });
    let started = performance.now();
    for (const path of paths) {
      const res = await request(`${reference.url}${path}`, { dispatcher: agent, headers: { authorization: `Bearer ${reference.keys.main}` } });
      await res.body.text();
    }
    const bare = (performance.now() - started) / REQUESTS;
    started = performance.now();
    for (const path of paths) await client.get(path.split('?')[0]!, { rawQuery: path.split('?')[1] });
    const harness = (performance.now() - started) / REQUESTS;
    console.log(
      `per request over ${REQUESTS} sequential GETs: bare undici ${ms(bare)}, harness ${ms(harness)} (cost ${ms(harness - bare)}: pacing and logging through the broker)`,
    );
  } finally {
    await agent.close();
    await served.close();
    await reference.close();
    await closeDispatcher();
  }
}

await fullRuns();
await perRequestCost();
// The pagination suite's walk over a million records beside a bare loop.
await paginationWalk();
