import { defineMutant } from './mutant.js';
import { rewriteJson } from './support.js';

/** A column too short for the key: the creation response shows it cut to 24 characters. */
export default defineMutant({
  description: 'reveals the new key cut to 24 characters, which does not authenticate',
  breaks: { 'KEY-1': 'fail', 'KEY-2': 'warn' },
  // The rate-limit suite measures a fresh key of its own: with no working key there is nothing to count.
  collateral: ['RATE-3', 'RATE-4', 'RATE-5'],
  modify: (reference) => {
    const member = reference.state.profile.apiKeyFields.secret ?? 'key';
    rewriteJson(reference, (body, req) => {
      if (req.method === 'POST' && req.url.split('?')[0] === '/api/v1/api_keys' && typeof body?.[member] === 'string') body[member] = body[member].slice(0, 24);
      return body;
    });
  },
});
