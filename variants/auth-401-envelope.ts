import { defineVariant } from './variant.js';

/**
 * The 401 for a missing or malformed Authorization header uses the common error envelope, all
 * five members, like every other error (the document does not show that 401's shape).
 */
export default defineVariant({
  description:
    'answers a missing or malformed Authorization header with the full common envelope {"error": {type, code: null, message, param: null, path: null}}',
  openPoint: 'auth-401-shape',
  atRisk: ['AUTH-1', 'AUTH-2', 'AUTH-7', 'AUTH-8', 'ERR-1', 'ERR-2'],
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 401 || typeof payload !== 'string' || payload.includes('"code"')) return payload;
      const { error } = JSON.parse(payload) as { error: { type: string; message: string } };
      return JSON.stringify({ error: { type: error.type, code: null, message: error.message, param: null, path: null } });
    });
  },
});
