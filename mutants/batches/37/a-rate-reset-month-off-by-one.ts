import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the limiter used to keep each window's end in Redis as a naive local datetime
 * string ("2026-11-22 13:01:00"), and X-RateLimit-Reset was computed by handing that string to the
 * host's date parser, which read it in the server's zone. The UTC migration rewrites the limiter to
 * store the window end as a UTC wall time in the same text format (the Redis layout is shared with
 * the billing exporter and could not change), and replaces the zone-dependent parse with an explicit
 * one: split the string into its parts and pass them to Date.UTC. The parts go in as written, and
 * Date.UTC takes a zero-based month, so every Reset lands one calendar month after the real window
 * end (a November window resets "in December"). The unit tests compare the header with a value the
 * same helper computes; in manual tests the header is a plausible ten-digit Unix time that nobody
 * converts back, and Retry-After, computed from the window itself, stays right, so clients that
 * honour it are unaffected.
 */
export default defineMutant({
  description:
    'X-RateLimit-Reset is rebuilt from the window end stored as a "YYYY-MM-DD HH:mm:ss" UTC string, passing its one-based month to Date.UTC, so the Reset is a month late.',
  breaks: { 'RATE-2': 'fail' },
  collateral: ['RATE-5'],
  modify: ({ behaviour }) => {
    /** How the limiter now writes a window end: UTC wall time, no zone, as the shared Redis layout wants. */
    const stored = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
    behaviour.resetHeader = (resetAtMs) => {
      const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(stored(resetAtMs));
      if (!match) return Math.ceil(resetAtMs / 1000);
      const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
      // Date.UTC's month is zero-based; the stored text's is not.
      return Math.ceil(Date.UTC(year, month, day, hour, minute, second) / 1000);
    };
  },
});
