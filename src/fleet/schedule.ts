/**
 * Runs `jobs` at most `concurrency` at a time, never two at once that hold a lock in common (a key,
 * a base URL): each waits for its locks, later jobs may overtake it meanwhile. Resolves with each
 * job's result, in the order of `jobs`.
 */
export async function runBounded<J, R>(
  jobs: readonly J[],
  options: { readonly concurrency: number; readonly locks: (job: J) => readonly string[]; readonly run: (job: J) => Promise<R> },
): Promise<R[]> {
  const results: R[] = new Array(jobs.length);
  const waiting = jobs.map((job, index) => ({ job, index, locks: options.locks(job) }));
  const held = new Set<string>();
  let running = 0;
  return new Promise((resolve, reject) => {
    const next = () => {
      if (waiting.length === 0 && running === 0) return resolve(results);
      for (let i = 0; i < waiting.length && running < options.concurrency;) {
        const candidate = waiting[i]!;
        if (candidate.locks.some((l) => held.has(l))) {
          i++;
          continue;
        }
        waiting.splice(i, 1);
        for (const l of candidate.locks) held.add(l);
        running++;
        options.run(candidate.job).then((result) => {
          results[candidate.index] = result;
          for (const l of candidate.locks) held.delete(l);
          running--;
          next();
        }, reject);
      }
    };
    next();
  });
}
