import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReference } from '../reference/server.js';
import { readReport, runCli } from '../test/support/cli.js';
import { liveRunKeys } from '../test/support/live-keys.js';

// `node --import tsx bench/real-scale.ts`: the whole suite against the reference with the
// document's real 60-second window. Takes as many minutes as the
// busiest key needs windows. `BENCH_WINDOW_SECONDS=1` runs the same measurement in seconds.
//
// Prints: `--dry-run`'s predicted wall time (for a run started at once) and the run's own schedule,
// total requests, requests on the main key, the busiest key and without a key, unplanned 429s,
// wall time, the floor and the ratio of the two. The floor is what the limits alone force: the larger
// of the busiest key's requests over its ceiling and the requests without a key over theirs, in
// windows, and at least one window (RATE-5 waits one out). Requests are counted by the target
// itself (a hook on the reference), so the figures do not depend on the suite's own log.

const WINDOW_SECONDS = Number(process.env.BENCH_WINDOW_SECONDS ?? 60);

/** Requests the target received, by the Authorization header they carried (none: without a key). */
const received = new Map<string, number>();
let refused = 0;

let liveSuiteKeys = () => 0;
const target = await startReference({
  windowSeconds: WINDOW_SECONDS,
  modify: ({ app, state }) => {
    liveSuiteKeys = () => liveRunKeys(state.store.accounts.slice(0, 1)).length;
    // onResponse, not onRequest: the 401s and 429s of authentication never reach later onRequest hooks.
    app.addHook('onResponse', async (req, reply) => {
      const who = req.headers.authorization ?? 'none';
      received.set(who, (received.get(who) ?? 0) + 1);
      if (reply.statusCode === 429) refused++;
    });
  },
});
const profileFile = join(mkdtempSync(join(tmpdir(), 'real-scale-')), 'profile.json');
writeFileSync(profileFile, JSON.stringify(target.profile));
const { perKeyPerMinute, unauthenticatedPerMinute } = target.profile.limits;

process.stdout.write(
  `real-scale: reference at ${target.url}, window ${WINDOW_SECONDS} s, ${perKeyPerMinute} a window per key, ${unauthenticatedPerMinute} without a key\n`,
);
const env = { CONFORMANCE_BASE_URL: target.url, CONFORMANCE_API_KEY: target.keys.main, CONFORMANCE_OTHER_ACCOUNT_API_KEY: target.keys.other };
// The schedule `--dry-run` predicts for a run started now; the run itself starts right after it.
// As a user starts it: a process of its own.
const dry = await runCli(['--profile', profileFile, '--dry-run', ...process.argv.slice(2)], env, { process: true });
const predictedS = Number(/about (\d+) s by the schedule/.exec(dry.stdout)?.[1] ?? NaN);
received.clear();
const started = Date.now();
const result = await runCli(['--profile', profileFile, ...process.argv.slice(2)], env, { timeoutMs: 4 * 60 * 60_000, process: true });
const wallMs = Date.now() - started;
const keysLeft = liveSuiteKeys();
await target.close();

const report = readReport(result);
const withoutKey = received.get('none') ?? 0;
const keyed = [...received.entries()].filter(([who]) => who !== 'none').map(([, n]) => n);
const busiest = Math.max(0, ...keyed);
const byKey = [...received.entries()]
  .filter(([who]) => who !== 'none')
  .map(([, n]) => n)
  .sort((a, b) => b - a);
const total = [...received.values()].reduce((a, b) => a + b, 0);
const floorWindows = Math.max(busiest / perKeyPerMinute, withoutKey / unauthenticatedPerMinute, 1);
const floorMs = floorWindows * WINDOW_SECONDS * 1000;
// The heartbeat's lines, each with the time the run said it still needed (issue 31).
const waitLines = result.stdout.split('\n').filter((line) => line.includes('… waiting') || line.includes('… still running'));

const mainKeyRequests = received.get(`Bearer ${target.keys.main}`) ?? 0;
const plannedS = Number(/schedule: about (\d+) s/.exec(result.stdout)?.[1] ?? NaN);
const figures = {
  dryRunPredictedSeconds: predictedS,
  runPlannedSeconds: plannedS,
  predictionError: Math.round((predictedS / (wallMs / 1000) - 1) * 1000) / 1000,
  mainKeyRequests,
  verdict: report.verdict,
  exitCode: result.exitCode,
  requests: total,
  requestsLoggedBySuite: report.environment.requests,
  busiestKeyRequests: busiest,
  keysUsed: keyed.length,
  requestsWithoutKey: withoutKey,
  refused429: refused,
  unplanned429: report.environment.unplanned429,
  wallSeconds: Math.round(wallMs / 100) / 10,
  floorWindows: Math.round(floorWindows * 100) / 100,
  floorSeconds: Math.round(floorMs / 100) / 10,
  ratio: Math.round((wallMs / floorMs) * 1000) / 1000,
  progressWaitLines: waitLines.length,
  createdKeysLeftLive: keysLeft,
  requestsByKey: byKey.join(' '),
};
for (const [name, value] of Object.entries(figures)) process.stdout.write(`  ${name.padEnd(22)} ${value}\n`);
for (const line of waitLines) process.stdout.write(`${line}\n`);
if (result.exitCode !== 0) process.stdout.write(`\nCLI output:\n${result.stdout}\n${result.stderr}\n`);
