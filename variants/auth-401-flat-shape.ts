import { defineVariant } from './variant.js';

/** A gateway answers requests without a usable Authorization header in a flat problem-like shape. */
export default defineVariant({
  description: 'answers a missing or malformed Authorization header with 401 {"status": 401, "type": "authentication_error", "detail": …}',
  openPoint: 'auth-401-shape',
  atRisk: ['AUTH-1', 'AUTH-2', 'AUTH-7', 'ERR-1', 'ERR-2'],
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      // The 401 for an unknown or revoked key carries the common envelope (with "code"): left alone.
      if (reply.statusCode !== 401 || typeof payload !== 'string' || payload.includes('"code"')) return payload;
      const { error } = JSON.parse(payload) as { error: { message: string } };
      return JSON.stringify({ status: 401, type: 'authentication_error', detail: error.message });
    });
  },
});
