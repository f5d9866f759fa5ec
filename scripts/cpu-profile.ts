import { readFileSync } from 'node:fs';

// `node --import tsx scripts/cpu-profile.ts FILE.cpuprofile [--top N] [--callers PATTERN] [--depth N] [--inclusive PATTERN]`: where a
// `node --cpu-prof` profile spent its time, as self time summed by file and by function, and, for the
// functions whose name or file matches PATTERN, the callers that time came through (`--depth` frames),
// and the time of all samples under a frame that matches (`--inclusive`: a stage's whole cost). For profiling a
// local run: `CONFORMANCE_LAUNCHED=direct node --cpu-prof --cpu-prof-dir=DIR bin/conformance.mjs ...`
// writes one profile for the main thread and one for each vitest worker.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args.splice(at, 2)[1];
};
const top = Number(option('--top') ?? 25);
const callers = option('--callers');
const depth = Number(option('--depth') ?? 8);
const inclusive = option('--inclusive');
const file = args[0];
if (!file) throw new Error('usage: scripts/cpu-profile.ts FILE.cpuprofile [--top N] [--callers PATTERN]');

process.stdout.on('error', () => process.exit(0));
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

// A sample's delta is the time until the next sample: the time spent in the sampled node.
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000));

const shortUrl = (url: string) =>
  url === ''
    ? '(native)'
    : url
        .replace(/^file:\/\//, '')
        .replace(/^.*\/node_modules\/(@[^/]+\/[^/]+|[^/]+)\/.*$/, 'npm:$1')
        .replace(/^\/work\/[^/]+\//, '');
const frameName = (node: ProfileNode) => `${node.callFrame.functionName || '(anonymous)'} ${shortUrl(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;

const sum = (key: (node: ProfileNode) => string) => {
  const totals = new Map<string, number>();
  for (const [id, ms] of self) {
    const name = key(byId.get(id)!);
    totals.set(name, (totals.get(name) ?? 0) + ms);
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
};
const print = (title: string, rows: [string, number][]) => {
  console.log(`\n${title}`);
  for (const [name, ms] of rows.slice(0, top)) console.log(`${ms.toFixed(1).padStart(9)} ms  ${name}`);
};

const wall = (profile.endTime - profile.startTime) / 1000;
const idle = sum((node) => node.callFrame.functionName).find(([name]) => name === '(idle)')?.[1] ?? 0;
console.log(`${file}: ${wall.toFixed(0)} ms profiled, ${(wall - idle).toFixed(0)} ms busy`);
print(
  'self time by file',
  sum((node) => shortUrl(node.callFrame.url)),
);
print('self time by function', sum(frameName));

if (inclusive) {
  // Time of every sample with a frame matching the pattern anywhere on its stack.
  const pattern = new RegExp(inclusive);
  let total = 0;
  for (const [id, ms] of self) {
    for (let up: number | undefined = id; up !== undefined; up = parent.get(up)) {
      if (pattern.test(frameName(byId.get(up)!))) {
        total += ms;
        break;
      }
    }
  }
  console.log(`\ntime under /${inclusive}/: ${total.toFixed(1)} ms`);
}

if (callers) {
  const pattern = new RegExp(callers);
  // For each matching node, the chain of callers above it (up to 8 frames), with the self time below.
  const chains = new Map<string, number>();
  for (const [id, ms] of self) {
    const node = byId.get(id)!;
    if (!pattern.test(frameName(node))) continue;
    const chain: string[] = [];
    for (let up = parent.get(id); up !== undefined && chain.length < depth; up = parent.get(up)) chain.push(frameName(byId.get(up)!));
    const key = `${frameName(node)}\n            <- ${chain.join('\n            <- ')}`;
    chains.set(key, (chains.get(key) ?? 0) + ms);
  }
  print(
    `callers of /${callers}/`,
    [...chains].sort((a, b) => b[1] - a[1]),
  );
}
