import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Agent, request } from 'undici';

// `node --import tsx bench/pagination-walk.ts`: a full walk at limit=10000 over the reference
// seeded with 1,000,000 records. The reference, the suite's walk and a bare undici
// loop each run in their own process, so that each peak RSS is that loop's own: each child
// imports only what its loop needs (the bare loop: undici).
//
// Prints: wall time and peak memory of the walk the suite does (HttpClient, broker hooks in
// process scanning every page for 11 created keys, suites/support/walk.ts judging every page and
// keeping every id), the same for a bare
// undici loop fetching the same pages, and the reference's own time per 10000-item page.

const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_000_000);
/** Keys the run has created by the time it walks: a pool of ten and one of the key checks'. */
const REVEALED_KEYS = 11;
const LIMIT = 10_000;
const SELF = fileURLToPath(import.meta.url);

interface LoopFigures {
  readonly wallMs: number;
  readonly pages: number;
  readonly bytes: number;
  /** Peak resident set size of the process, from resourceUsage (kB → MB). */
  readonly maxRssMb: number;
  /** Highest heapUsed sampled after each page. */
  readonly peakHeapMb: number;
  readonly note?: string;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

/** Child: the reference, with a ceiling no walk reaches and a timer on every list request. */
async function serve(): Promise<void> {
  const { referenceProfile, startReference } = await import('../reference/server.js');
  const base = referenceProfile();
  const timings: number[] = [];
  const reference = await startReference({
    records: RECORDS,
    profile: { ...base, limits: { ...base.limits, perKeyPerMinute: 1e9 } },
    modify: ({ app }) => {
      const started = new WeakMap<object, bigint>();
      app.addHook('onRequest', async (req) => void started.set(req, process.hrtime.bigint()));
      app.addHook('onResponse', async (req) => {
        const start = started.get(req);
        if (start !== undefined && req.url.startsWith('/api/v1/records')) timings.push(Number(process.hrtime.bigint() - start) / 1e6);
      });
      // Outside /api/, so no key: the parent reads and resets the timings between loops.
      app.get('/bench/timings', async (req) => {
        const out = [...timings];
        if ((req.query as { reset?: string }).reset) timings.length = 0;
        return { timings: out };
      });
    },
  });
  process.stdout.write(`${JSON.stringify({ url: reference.url, key: reference.keys.main })}\n`);
  process.on('SIGTERM', () => void reference.close().then(() => process.exit(0)));
}

/** Child: the walk as the suite makes it. */
async function suiteWalk(url: string, key: string): Promise<LoopFigures> {
  const [{ Broker }, { closeDispatcher, HttpClient }, { walk }] = await Promise.all([
    import('../src/broker/broker.js'),
    import('../src/http/client.js'),
    import('../suites/support/walk.js'),
  ]);
  const broker = new Broker({ keyPrefix: 'sk_', ledgerFile: null, pacer: { perKey: 1e9, anonymous: 20, windowMs: 60_000, marginMs: 30 } });
  broker.addConfiguredSecret(key);
  // As in a run with a key pool: every page is scanned for parts of the keys the run created.
  for (let n = 0; n < REVEALED_KEYS; n++) broker.addRevealedSecret(`sk_${randomBytes(24).toString('base64url')}`);
  const client = new HttpClient({
    baseUrl: url,
    keys: { main: key, other: null },
    extraHeaders: [],
    timeoutMs: 60_000,
    hooks: { acquire: (b, a) => broker.acquire(b, a), record: async (e, body) => void broker.record(e, body) },
  });
  let peakHeap = 0;
  let bytes = 0;
  const started = performance.now();
  const result = await walk(
    async (page, limit) => {
      const res = await client.get('/api/v1/records', { query: { page, limit }, listSkeleton: { idField: 'id' } });
      bytes += res.exchange.response?.bytes ?? 0;
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
      return res;
    },
    { limit: LIMIT, idField: 'id', budget: Number.POSITIVE_INFINITY },
  );
  const wallMs = performance.now() - started;
  await closeDispatcher();
  // What the walk keeps (the id set, the broker's log) once the pages are collected.
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  const retainedMb = mb(process.memoryUsage().heapUsed);
  const problems = Object.entries(result.problems).map(([clause, p]) => `${clause}: ${p.reason}`);
  const note = `${result.ids?.size ?? 0} distinct ids tracked (heap after GC with them held: ${retainedMb.toFixed(0)} MB), complete ${result.complete}${problems.length ? `, problems: ${problems.join('; ')}` : ', no problem found'}`;
  // The broker's log keeps each exchange (bodies cut to 64 KiB), as a run's broker does.
  return { wallMs, pages: result.requests, bytes, maxRssMb: process.resourceUsage().maxRSS / 1024, peakHeapMb: mb(peakHeap), note };
}

/** Child: the same pages with nothing but undici. */
async function bareLoop(url: string, key: string): Promise<LoopFigures> {
  const agent = new Agent({ connections: 1 });
  const pages = Math.max(1, Math.ceil(RECORDS / LIMIT));
  let peakHeap = 0;
  let bytes = 0;
  const started = performance.now();
  for (let page = 1; page <= pages; page++) {
    const res = await request(`${url}/api/v1/records?page=${page}&limit=${LIMIT}`, { dispatcher: agent, headers: { authorization: `Bearer ${key}` } });
    bytes += (await res.body.text()).length;
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }
  const wallMs = performance.now() - started;
  await agent.close();
  return { wallMs, pages, bytes, maxRssMb: process.resourceUsage().maxRSS / 1024, peakHeapMb: mb(peakHeap) };
}

function child(args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', SELF, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
}

async function firstLine(proc: ChildProcess): Promise<string> {
  const lines = createInterface({ input: proc.stdout! });
  for await (const line of lines) return line;
  throw new Error('the child process ended without output');
}

async function timings(url: string): Promise<number[]> {
  const res = await request(`${url}/bench/timings?reset=1`);
  return ((await res.body.json()) as { timings: number[] }).timings;
}

async function main(): Promise<void> {
  const server = child(['serve']);
  try {
    const { url, key } = JSON.parse(await firstLine(server)) as { url: string; key: string };
    const env = { BENCH_URL: url, BENCH_KEY: key };
    const run = async (mode: string) => JSON.parse(await firstLine(child([mode], env))) as LoopFigures;
    await run('bare'); // warm-up: the reference's JIT and pools
    await timings(url);
    const bare = await run('bare');
    const bareServer = await timings(url);
    const suite = await run('walk');
    const suiteServer = await timings(url);
    const sorted = [...bareServer, ...suiteServer].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
    const line = (name: string, f: LoopFigures) =>
      `  ${name.padEnd(22)} ${(f.wallMs / 1000).toFixed(2).padStart(6)} s  ${f.pages} pages  ${(f.wallMs / f.pages).toFixed(1).padStart(6)} ms/page  ` +
      `peak RSS ${f.maxRssMb.toFixed(0).padStart(4)} MB  peak heap ${f.peakHeapMb.toFixed(0).padStart(4)} MB  ${(mb(f.bytes) / (f.wallMs / 1000)).toFixed(0)} MB/s`;
    console.log(
      `pagination walk: ${RECORDS.toLocaleString('en')} records at limit=${LIMIT} (${Math.ceil(RECORDS / LIMIT)} pages of ~${mb(bare.bytes / bare.pages).toFixed(1)} MB)`,
    );
    console.log(line('bare undici loop', bare));
    console.log(line('suite walk (HttpClient)', suite));
    console.log(`  ${suite.note}`);
    console.log(
      `  reference time per ${LIMIT}-item page (request in to response written): median ${median.toFixed(1)} ms, mean ${mean.toFixed(1)} ms over ${sorted.length} pages`,
    );
  } finally {
    server.kill('SIGTERM');
  }
}

/** Runs the three processes and prints the figures; `bench/run.ts` calls it too. */
export const paginationWalk = main;

// Run directly: no argument is the bench itself; `serve`, `walk` and `bare` are its children.
if (process.argv[1] === SELF) {
  const mode = process.argv[2];
  if (mode === 'serve') await serve();
  else if (mode === 'walk' || mode === 'bare') {
    const figures = await (mode === 'walk' ? suiteWalk : bareLoop)(process.env.BENCH_URL!, process.env.BENCH_KEY!);
    process.stdout.write(`${JSON.stringify(figures)}\n`);
    process.exit(0);
  } else await main();
}
