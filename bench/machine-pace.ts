/**
 * The machine's pace while a benchmark runs: how long a fixed piece of CPU work takes (JSON parsed
 * and written, as a run spends much of its CPU), the median of a few, before and after the
 * figures. On this shared virtual machine the same local run took from 3.3 to 5.0 CPU-seconds
 * within a quarter of an hour, with no steal time reported and the machine otherwise idle: a figure
 * beside the pace tells a slow hour from a slower suite.
 */
export function machinePace(): number {
  for (let i = 0; i < 2; i++) workload();
  const times = Array.from({ length: 5 }, () => {
    const started = performance.now();
    workload();
    return performance.now() - started;
  });
  return times.sort((a, b) => a - b)[2]!;
}

const SAMPLE = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: `rec_${i}`, title: `record number ${i}`, amount: i * 1.5, tags: ['a', 'b'] })));

function workload(): number {
  let size = 0;
  for (let i = 0; i < 10; i++) size += JSON.stringify(JSON.parse(SAMPLE)).length;
  return size;
}
