import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: submissions move to the intake service, and the intake team adopts the
 * platform's shared rate-limit middleware in "shadow mode": it counts the key's requests in
 * intake's own counter and writes X-RateLimit-* headers, but never refuses, so that the team can
 * see what its own limit would do. The edge still enforces the real per-key limit and sets the
 * headers itself; its proxy then copies the downstream response headers onto the public response
 * with `appendHeader`, so that multi-valued headers such as Set-Cookie and Vary survive. Every
 * submission the edge forwards to intake therefore answers with each X-RateLimit-* header twice:
 * the edge's value and intake's own count (a client sees `X-RateLimit-Limit: 100, 100` and
 * `X-RateLimit-Remaining: 57, 98`). Reads, key calls and the edge's own refusals are untouched, and
 * `curl -i` shows two plausible lines each, so nobody notices.
 */
export default defineMutant({
  description:
    "Responses to submissions forwarded to the intake service carry every X-RateLimit-* header twice, the edge's value and intake's own shadow count, which clients read as a comma-joined list.",
  // The writer declared RATE-2 too; changed by the suite's maintainers: each of the two values is
  // within RATE-2's bounds (the edge's and intake's Limit are the ceiling, each Remaining between 0
  // and it), and a value that is no integer is RATE-1's ("as integers", a SHOULD).
  breaks: { 'RATE-1': 'warn' },
  collateral: ['RATE-2', 'RATE-8'],
  provokedBy: ['SUB'],
  modify: (reference) => {
    const { state } = reference;
    const param = state.profile.submissions.workspaceQueryParam ?? 'workspace_id';
    const shadow = new Map<string, { window: number; used: number }>();
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions') return payload;
      // The edge's own answers (authentication, its limiter) never reach intake.
      if (reply.statusCode === 401 || reply.statusCode === 429 || !req.apiKey) return payload;
      // The edge checks the workspace in the query itself and forwards only when it names one.
      const workspace = (req.query as Record<string, unknown>)[param];
      if (!req.account.data.workspaces.some((w) => w.id === workspace)) return payload;
      const edge = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map((name) => reply.getHeader(name));
      if (edge.some((value) => value === undefined)) return payload;
      // Intake's shadow counter: the same window and ceiling, counting only what intake sees, never refusing.
      const now = state.now();
      const window = Math.floor(now / state.limiter.windowMs);
      const counted = shadow.get(req.apiKey.id);
      const used = counted && counted.window === window ? counted.used + 1 : 1;
      shadow.set(req.apiKey.id, { window, used });
      const ceiling = state.profile.limits.perKeyPerMinute;
      const intake = [ceiling, Math.max(0, ceiling - used), Math.ceil(((window + 1) * state.limiter.windowMs) / 1000)];
      reply.header('x-ratelimit-limit', [String(edge[0]), String(intake[0])]);
      reply.header('x-ratelimit-remaining', [String(edge[1]), String(intake[1])]);
      reply.header('x-ratelimit-reset', [String(edge[2]), String(intake[2])]);
      return payload;
    });
  },
});
