import { defineMutant } from '../../mutant.js';
import { isEnvelope, pathOf } from '../../support.js';

/*
 * How this happens: the mobile team's offline sync pulls the records list with the largest page
 * the document allows, and the payloads make the first sync slow on cellular networks. They ask
 * for a lighter "sync shape": the backend decides that a page larger than 1000 is a sync, and
 * serves such pages in summary form, id, status and service_id only, with the data payload left
 * for the app to fetch by id when a record is opened. Everything at the default page size looks
 * exactly as before, so the web app and the examples in the docs never show the change.
 */

const SUMMARY_ABOVE = 1000;

export default defineMutant({
  description: 'Records list pages with a limit above 1000 are served in summary form: each record carries id, status and service_id but no data payload.',
  breaks: { 'RES-3': 'fail' },
  collateral: ['RES-7'],
  provokedBy: ['PAG'],
  modify: (reference) => {
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'GET' || pathOf(req) !== '/api/v1/records') return payload;
      if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
      const raw = (req.query as Record<string, unknown>).limit;
      const limit = typeof raw === 'string' ? Number(raw) : Number.NaN;
      if (!Number.isInteger(limit) || limit <= SUMMARY_ABOVE) return payload;
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (!isEnvelope(body)) return payload;
      for (const item of body.items) {
        if (typeof item === 'object' && item !== null) delete (item as Record<string, unknown>).data;
      }
      return JSON.stringify(body);
    });
  },
});
