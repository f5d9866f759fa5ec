import type { ReferenceOptions } from '../../reference/server.js';
import type { Profile } from '../../src/profile/profile.js';
import { onSimulatedClock } from './simulated.js';

// What the kill matrix and the tolerance matrix share: how to make some hundred full runs fit
// within minutes without costing sensitivity or tolerance.
//
// Runs use 25 generated cases per property instead of 100. Every check has fixed cases besides its
// properties, so a fault (or a false failure) caught only by luck of the draw would show as a
// flaky test.
const MATRIX_ARGS: readonly string[] = ['--property-runs', '25'];

// Exhausting a key costs a hundred requests or more and proves nothing about a behaviour
// elsewhere: a run whose subject is not rate limiting leaves out the checks that exhaust a budget.
// The rate-limit judges over the whole run's responses (RATE-1, -2, -8, -9) still run.
const EXHAUSTING_CHECKS = ['RATE-3', 'RATE-4', 'RATE-5', 'RATE-6', 'RATE-7'];

/**
 * The reference a matrix run checks: the mutant's or variant's `modify` under `profile`, on the
 * simulated clock (src/clock.ts): the profile's own limits and windows (60 s), whose waits take no
 * time and which a loaded machine cannot shorten, so that no verdict hangs on where a window
 * boundary falls (docs/architecture.md, "Time").
 */
export function matrixTarget(modify: ReferenceOptions['modify'], profile: Profile): ReferenceOptions {
  return onSimulatedClock({ ...(modify ? { modify } : {}), profile });
}

export function matrixArgs(rateLimits: boolean): readonly string[] {
  return rateLimits ? MATRIX_ARGS : [...MATRIX_ARGS, '--skip', EXHAUSTING_CHECKS.join(',')];
}
