import { defineMutant } from '../../mutant.js';

/*
 * How this happens: support asked that a deleted key be told apart from a mistyped one. Since
 * deleted keys are soft-deleted and still found by their hash, the auth middleware got a new
 * branch for them. The developer built its response by copying the nearby helper that answers a
 * missing or malformed header. That 401 differs from the envelope, so it has only type and
 * message. He then added a code `api_key_revoked`. Unknown keys still take the old path with the
 * full envelope and code null. Only the crossing of a well-formed key that is revoked gets the
 * short body, with a code and no param or path.
 */
export default defineMutant({
  description:
    'A request with a revoked (deleted) key gets 401 {"error": {"type": "authentication_error", "code": "api_key_revoked", "message": ...}} without param and path, while unknown keys get the full envelope with code null.',
  breaks: { 'ERR-1': 'fail', 'AUTH-3': 'fail', 'AUTH-8': 'warn' },
  collateral: ['KEY-5'],
  provokedBy: ['KEY'],
  modify: (reference) => {
    const { store } = reference.state;
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (reply.statusCode !== 401 || typeof payload !== 'string') return payload;
      const match = /^bearer +(\S+)$/i.exec(req.headers.authorization ?? '');
      if (!match) return payload;
      const key = store.findKey(match[1]!);
      if (!key || key.revokedAtMs === null) return payload;
      return JSON.stringify({ error: { type: 'authentication_error', code: 'api_key_revoked', message: 'This API key has been revoked.' } });
    });
  },
});
