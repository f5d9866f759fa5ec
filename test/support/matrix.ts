import type { ReferenceOptions } from '../../reference/server.js';
import type { Profile } from '../../src/profile/profile.js';

// What the kill matrix and the tolerance matrix share: how to make some hundred full runs fit
// within minutes without costing sensitivity or tolerance.
//
// Runs use a fast variant of the profile (1000 requests a window instead of 100, so pacing rarely
// waits) with 25 generated cases per property instead of 100. Every check has fixed cases besides
// its properties, so a fault (or a false failure) caught only by luck of the draw would show as
// a flaky test.
const MATRIX_ARGS: readonly string[] = ['--property-runs', '25'];

// Exhausting a key under that ceiling costs 1,000 to 2,000 requests, half of a run, and proves
// nothing about a behaviour elsewhere: a run whose subject is not rate limiting leaves out the
// checks that exhaust a budget. The rate-limit judges over the whole run's responses (RATE-1,
// -2, -8, -9) still run.
const EXHAUSTING_CHECKS = ['RATE-3', 'RATE-4', 'RATE-5', 'RATE-6', 'RATE-7'];

/**
 * The profile a matrix run uses. Runs about rate limiting keep the real ceiling: exhausting 1000
 * requests inside one second is more than a loaded machine can send, and their checks would be
 * skipped.
 */
export function matrixProfile(profile: Profile, rateLimits: boolean): Profile {
  if (rateLimits) return profile;
  return { ...profile, limits: { ...profile.limits, perKeyPerMinute: 1000 } };
}

export function matrixArgs(rateLimits: boolean): readonly string[] {
  return rateLimits ? MATRIX_ARGS : [...MATRIX_ARGS, '--skip', EXHAUSTING_CHECKS.join(',')];
}

/** The reference a matrix run checks: the mutant's or variant's `modify`, and the matrix profile. */
export function matrixTarget(modify: ReferenceOptions['modify'], profile: Profile, rateLimits: boolean): ReferenceOptions {
  return { ...(modify ? { modify } : {}), profile: matrixProfile(profile, rateLimits) };
}
