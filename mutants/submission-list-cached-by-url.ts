import { defineMutant } from './mutant.js';
import { pathOf } from './support.js';

/**
 * A cache of submission list pages keyed by the URL alone, not the account, for 30 s, cleared when
 * a submission is created: the other account asking the same URL soon after gets the first
 * account's page. Before the run writes, both accounts' lists are empty and the leak shows nothing.
 * Written blind, from the API document, by someone who had not read the suite (batch 8).
 */
export default defineMutant({
  description:
    'Submission list responses are cached for 30 seconds under their URL alone (not the account), cleared when a submission is created, so another account asking the same URL soon after gets the first account’s page.',
  breaks: { 'AUTH-6': 'fail' },
  collateral: ['SUB-4'],
  modify: (reference) => {
    const list = reference.state.profile.paths.submissionList;
    if (!list) return;
    const ttlMs = 30_000;
    const cache = new Map<string, { body: string; at: number }>();
    reference.app.addHook('preHandler', async (req, reply) => {
      if (req.method !== 'GET' || pathOf(req) !== list) return;
      const hit = cache.get(req.url);
      if (!hit || reference.state.now() - hit.at >= ttlMs) return;
      reply.code(200).type('application/json; charset=utf-8').send(hit.body);
      return reply;
    });
    reference.app.addHook('onSend', async (req, reply, payload) => {
      const path = pathOf(req);
      if (req.method === 'POST' && path === '/api/v1/submissions' && reply.statusCode === 201) cache.clear();
      if (req.method === 'GET' && path === list && reply.statusCode === 200 && typeof payload === 'string' && !cache.has(req.url)) {
        cache.set(req.url, { body: payload, at: reference.state.now() });
      }
      return payload;
    });
  },
});
