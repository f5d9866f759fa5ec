import type { Socket } from 'node:net';
import { defineMutant } from './mutant.js';

/**
 * A gateway that authenticates a keep-alive connection once: the last header with a live key is
 * kept for the connection, and a later request on it that carries no key, an unknown one or a
 * malformed header is served as that key (API document, Authentication 1).
 */
export default defineMutant({
  description: 'a request on a keep-alive connection that a live key authenticated is served as that key, whatever it carries itself',
  breaks: { 'AUTH-1': 'fail', 'AUTH-2': 'fail', 'AUTH-3': 'fail' },
  modify: (reference) => {
    const { store } = reference.state;
    const authenticated = new WeakMap<Socket, string>();
    reference.app.server.prependListener('request', (req) => {
      const header = req.headers.authorization;
      const token = /^bearer +(\S+)$/i.exec(header ?? '')?.[1];
      const key = token ? store.findKey(token) : null;
      if (header && key && key.revokedAtMs === null) authenticated.set(req.socket, header);
      else if (authenticated.has(req.socket)) req.headers.authorization = authenticated.get(req.socket);
    });
  },
});
