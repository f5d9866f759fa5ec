import { dryRunLines } from '../dry-run.js';
import type { Planned } from './plan.js';

/** `--dry-run`: the plan printed (`dry-run.ts`), nothing created; exit 0. */
export function dryRunStage(input: Planned): number {
  const { plan, io } = input;
  const lines = dryRunLines({
    profile: input.target.loaded.profile,
    selection: plan.selection,
    readOnly: plan.readOnly,
    hasOtherAccountKey: plan.hasOtherAccountKey,
    keys: plan.schedule.keys,
    propertyRuns: plan.propertyRuns,
    explore: plan.explore,
    maxSubmissions: plan.maxSubmissions,
    deletionDeclared: plan.deletionDeclared,
    leaveKeys: plan.leaveKeys,
    schedule: plan.schedule,
  });
  for (const line of lines) io.out(line);
  return 0;
}
