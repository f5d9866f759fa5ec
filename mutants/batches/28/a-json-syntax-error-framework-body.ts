import { defineMutant } from '../../mutant.js';

/*
 * How this happens: the application's error handler recognised a malformed request body with
 * `if (error instanceof SyntaxError)` and answered it in the API's envelope; anything else with a
 * 4xx status was passed on with `reply.send(error)`. After the framework's major upgrade, a body the
 * JSON parser cannot read is no longer a bare SyntaxError but the framework's own
 * FST_ERR_CTP_INVALID_JSON_BODY error, so the instanceof test misses and the error reaches the
 * framework's default serializer, which writes `{statusCode, code, error, message}`. Every valid
 * request, and every validation error the routes raise themselves, still uses the envelope; only a
 * client that sends broken JSON sees the framework's body.
 */
export default defineMutant({
  description:
    "A request body that is not valid JSON gets the framework's default 400 body {statusCode, code: 'FST_ERR_CTP_INVALID_JSON_BODY', error: 'Bad Request', message} instead of the API's error envelope.",
  breaks: { 'ERR-1': 'fail', 'GEN-4': 'warn' },
  collateral: ['ERR-2', 'ERR-7'],
  modify: (reference) => {
    reference.app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 400 || typeof payload !== 'string') return payload;
      let code: unknown;
      try {
        code = (JSON.parse(payload) as { error?: { code?: unknown } } | null)?.error?.code;
      } catch {
        return payload;
      }
      if (code !== 'invalid_json') return payload;
      return JSON.stringify({
        statusCode: 400,
        code: 'FST_ERR_CTP_INVALID_JSON_BODY',
        error: 'Bad Request',
        message: "Body is not valid JSON but content-type is set to 'application/json'",
      });
    });
  },
});
