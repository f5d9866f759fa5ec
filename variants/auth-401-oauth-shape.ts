import { defineVariant } from './variant.js';

/** An OAuth-style gateway answers requests without a usable Authorization header in its own shape. */
export default defineVariant({
  description: 'answers a missing or malformed Authorization header with 401 {"error": "authentication_error", "error_description": …}',
  openPoint: 'auth-401-shape',
  atRisk: ['AUTH-7', 'ERR-1', 'ERR-2'],
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 401 || typeof payload !== 'string' || payload.includes('"code"')) return payload;
      const { error } = JSON.parse(payload) as { error: { message: string } };
      return JSON.stringify({ error: 'authentication_error', error_description: error.message });
    });
  },
});
