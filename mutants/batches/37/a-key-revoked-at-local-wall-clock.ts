import { defineMutant } from '../../mutant.js';
import { itemPrefix, pathOf } from '../../support.js';

/** The zone the vendor's database hosts are set to. */
const DATABASE_ZONE = 'Europe/Berlin';

/** The wall-clock time in `zone` at the instant `ms`, read as if it were UTC (what a naive timestamp column stores). */
function naiveLocal(ms: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'), ms % 1000);
}

/*
 * How this happens: key rotation gained an overlap ("revoke at"): a revocation is a revoked_at
 * time, and authentication lets a key through while revoked_at is still in the future. The UTC
 * migration converted the authentication path to compare revoked_at with the UTC clock, but the
 * delete endpoint still stamps revoked_at with the database's LOCALTIMESTAMP into a column without
 * a time zone, and the database hosts run in Europe/Berlin. Read back as UTC, the revocation of a
 * deleted key lies one or two hours ahead, so the key keeps authenticating until then. The key
 * vanishes from the key list at once (the list filters on revoked_at being set), so the dashboard
 * shows the delete working; the team's CI database runs in UTC, where both clocks agree.
 */
export default defineMutant({
  description:
    "Deleting a key stamps its revocation with the database's Europe/Berlin wall-clock time read as UTC, so the deleted key keeps authenticating for the zone's offset (one or two hours).",
  breaks: { 'KEY-5': 'fail', 'AUTH-3': 'fail' },
  collateral: ['AUTH-8'],
  modify: ({ app, state }) => {
    const prefix = itemPrefix(state.profile.paths.apiKey);
    if (!prefix) return;
    app.addHook('onSend', async (req, reply, payload) => {
      const path = pathOf(req);
      if (req.method !== 'DELETE' || reply.statusCode !== 204 || !path.startsWith(prefix)) return payload;
      const key = req.account?.keys.get(decodeURIComponent(path.slice(prefix.length)));
      if (key && key.revokedAtMs !== null) key.revokedAtMs = naiveLocal(key.revokedAtMs, DATABASE_ZONE);
      return payload;
    });
  },
});
