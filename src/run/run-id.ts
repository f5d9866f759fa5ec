import { randomBytes } from 'node:crypto';

/**
 * A run's id: its UTC start to the second and six hex digits (`20261123T134500-a1b2c3`). Keys are
 * named `conformance-<run id>-<purpose>`, so that `cleanup` can tell a run's keys and their age.
 */
export function newRunId(startedAt: Date = new Date()): string {
  return `${startedAt.toISOString().replace(/[-:]/g, '').slice(0, 15)}-${randomBytes(3).toString('hex')}`;
}
