import type { ClauseStatus } from '../verdict/verdict.js';

/** A clause's status in a fleet cell; `none` where the deployment has no report. Total over the statuses. */
export const STATUS_MARK: Record<ClauseStatus | 'none', string> = {
  pass: 'pass',
  fail: 'FAIL',
  warn: 'warn',
  not_applicable: 'n/a',
  skipped: 'skipped',
  error: 'error',
  none: '—',
};
