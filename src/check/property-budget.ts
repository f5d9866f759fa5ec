/**
 * Generated cases per property: the same at any limits, so that a run against a deployment is as
 * strong as the local one (the key pool, not fewer cases, keeps it short). `--property-runs` sets
 * it otherwise; a certification run refuses fewer (`config/run-mode.ts`).
 */
export function propertyBudget(): number {
  return FULL_STRENGTH_PROPERTY_RUNS;
}

const FULL_STRENGTH_PROPERTY_RUNS = 100;
