import type { PlannedBudget, Schedule } from './schedule.js';

// The schedule put into words: for `--dry-run`, and for the run's start.

/** The schedule in lines for `--dry-run` and the run's start. */
export function scheduleLines(plan: Schedule): string[] {
  const s = (seconds: number) => `${Math.round(seconds)} s`;
  const budgetLine = (b: PlannedBudget) =>
    `  ${b.count > 1 ? `${b.count} ${b.who}` : b.who}: about ${b.requests} requests${b.count > 1 ? ' each' : ''} of ${b.ceiling} a window, ${b.windows} window(s)`;
  const phase =
    plan.firstWindowEndsInS === null
      ? ''
      : ` if it starts now (the target's window ends in ${s(plan.firstWindowEndsInS)}); ${s(plan.worstSeconds)} if it starts as a window begins`;
  return [
    `schedule: ${plan.requests} requests over ${plan.windows} window(s) of ${plan.windowSeconds} s`,
    ...plan.budgets.map(budgetLine),
    ...plan.waits.map((w) => `  waits for the end of a window: ${w}, overlapping the rest of the run`),
    `  wall time: about ${s(plan.seconds)}${phase} (${s(plan.workSeconds)} of requests, the lanes of the run beside each other)`,
  ];
}

/** The schedule in one line for the run's start: "schedule: about 64 s, 1 window(s) of 60 s, 21 keys, ...". */
export function planLine(plan: Schedule): string {
  const phase = plan.firstWindowEndsInS === null ? '' : `, the target's window ending in ${Math.round(plan.firstWindowEndsInS)} s`;
  const waits = plan.waits.length > 0 ? `; waits for a window: ${plan.waits.join(', ')}` : '';
  return `schedule: about ${Math.round(plan.seconds)} s for about ${plan.requests} requests, ${plan.windows} window(s) of ${plan.windowSeconds} s over ${plan.keys} key(s)${phase}${waits}`;
}
