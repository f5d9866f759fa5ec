import { defineMutant } from './mutant.js';
import { beforeReference } from './support.js';

/**
 * The server trusts proxy headers (`trustProxy: true`) with no proxy in front of it: the address
 * the per-IP budget counts is the first entry of X-Forwarded-For, whoever wrote it, so a client
 * that names another address in each request is never limited. Written blind, from the API
 * document, by someone who had not read the suite (batch 8).
 */
export default defineMutant({
  description: 'the per-IP budget without a key counts the address X-Forwarded-For names, whoever sent it: a client naming another address escapes it',
  breaks: { 'RATE-7': 'fail' },
  modify: (reference) => {
    // The address a request's socket reports, for this request: what the framework reads as req.ip.
    beforeReference(reference, (req) => {
      const first = [req.headers['x-forwarded-for']].flat().join(',').split(',')[0]?.trim();
      const socket = req.socket as { remoteAddress?: string };
      if (first) Object.defineProperty(socket, 'remoteAddress', { value: first, configurable: true });
      else delete socket.remoteAddress;
    });
  },
});
