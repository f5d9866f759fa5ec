import { defineMutant } from './mutant.js';

/**
 * The not-found page comes from a legacy template stored in Latin-1 and is sent as it is, under a
 * label that promises UTF-8: "é" goes out as the one byte 0xE9. A lenient decoder reads U+FFFD and
 * parses the body; JSON text must be UTF-8 (RFC 8259 §8.1), so it is not JSON (GEN-1).
 */
export default defineMutant({
  description: 'sends the 404 for an unknown path with a message in Latin-1 bytes under application/json; charset=utf-8',
  breaks: { 'GEN-1': 'fail' },
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (reply.statusCode !== 404 || typeof payload !== 'string' || !payload.includes('"No endpoint ')) return payload;
      const body = JSON.parse(payload) as { error: { message: string } };
      body.error.message = `Aucune ressource à cette adresse (${body.error.message})`;
      reply.header('content-type', 'application/json; charset=utf-8');
      return Buffer.from(JSON.stringify(body), 'latin1');
    });
  },
});
