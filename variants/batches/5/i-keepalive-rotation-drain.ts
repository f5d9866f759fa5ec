import type { Socket } from 'node:net';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: the API runs as a Kubernetes Deployment of three pods behind a
 * Service, i.e. behind kube-proxy, which balances connections, not requests: a client's keep-alive
 * connection stays on the pod it first reached. After a scale-out the new pods sat idle while the
 * old ones held every pooled connection (the well-known keep-alive imbalance of L4 balancing), so
 * the team caps requests per connection, as Envoy's `max_requests_per_connection`, nginx's
 * `keepalive_requests` or Node's `server.maxRequestsPerSocket` do: the 25th response on a
 * connection carries `Connection: close` and the pod closes the connection after it, and the
 * client's next request opens a new connection, which the balancer may send to another pod. The
 * Deployment is also rolled often (`RollingUpdate`, one pod at a time): a pod being replaced gets
 * SIGTERM after its endpoint is removed, stops taking connections, and drains the keep-alive
 * connections it still holds by answering the next request on each with `Connection: close`
 * (what Go's `Server.Shutdown`, or Node's `server.close()` with `closeIdleConnections()`, amounts
 * to; Fastify's `return503OnClosing` is off, so a draining pod still answers what it is sent).
 * Here one pod is replaced after every 150 responses, in turn. A connection is closed only once its
 * request has been read whole, so that no unread request body turns the close into a reset (nginx's
 * lingering close does the same); otherwise the close waits for the connection's next response.
 * Every response names its pod (`X-Served-By`, the pod's name).
 *
 * Why it is conformant:
 * - The document says nothing of connections (open point `http-transport`); RFC 9112 9.6 lets a
 *   server close a persistent connection after any response, signalled with `Connection: close`,
 *   and RFC 9112 9.3 has clients retry on a new connection. Every request sent is answered in full,
 *   with the status, headers and JSON body of the reference (GEN-1, GEN-5): a close never cuts a
 *   response, never replaces one with a 5xx or a 503 (GEN-3).
 * - The pods share the store and the rate counters, so which pod or connection carries a request
 *   changes nothing in what it is answered: authentication (AUTH-1..3, KEY-1, KEY-5: a deleted key
 *   is 401 on the very next request, whichever connection it comes on), limits counted per key and
 *   per IP address across connections (RATE-1..8), pages (PAG-7, PAG-8).
 * - `X-Served-By` is an extension header (RFC 9110 5.1), fixed text per pod, never an echo of input.
 */

const PODS = 3;
/** Responses a connection carries before the pod closes it. */
const MAX_REQUESTS_PER_CONNECTION = 25;
/** Responses (over all pods) between the replacements of one pod by the rolling update. */
const ROLL_EVERY = 150;
/** The ReplicaSet hash of each revision the rollout goes through, as `kubectl get pods` shows it. */
const revision = (generation: number): string => ((0x6d4f8b7c59 + generation * 0x1f3a5c7e9) % 0xffffffffff).toString(16).padStart(10, '0');
const SUFFIXES = ['x2k4p', 'q8w7n', 'l5v9c'] as const;

interface Connection {
  readonly slot: number;
  readonly generation: number;
  served: number;
}

export default defineVariant({
  description:
    'pods behind a connection-balancing Service, rolled often: the 25th response on a keep-alive connection, and the next response on every connection of a pod being replaced (one after every 150 responses), carry Connection: close and the connection is closed after it; X-Served-By names the pod',
  openPoint: 'http-transport',
  atRisk: ['GEN-1', 'GEN-3', 'AUTH-1', 'KEY-1', 'KEY-2', 'KEY-5', 'RATE-3', 'RATE-7', 'RATE-8', 'PAG-7'],
  modify: ({ app }) => {
    const connections = new WeakMap<Socket, Connection>();
    /** The current generation of the pod in each slot: a pod whose connection is of an older one is draining. */
    const generations: number[] = Array.from({ length: PODS }, () => 0);
    let opened = 0;
    let answered = 0;

    app.addHook('onSend', async (req, reply, payload) => {
      const socket = req.raw.socket;
      let connection = connections.get(socket);
      if (!connection) {
        // The balancer picks a live pod for each new connection, round-robin.
        const slot = opened++ % PODS;
        connection = { slot, generation: generations[slot]!, served: 0 };
        connections.set(socket, connection);
      }
      connection.served++;
      answered++;
      if (answered % ROLL_EVERY === 0) {
        const slot = (answered / ROLL_EVERY - 1) % PODS;
        generations[slot] = generations[slot]! + 1;
      }
      const draining = connection.generation !== generations[connection.slot];
      if ((draining || connection.served >= MAX_REQUESTS_PER_CONNECTION) && req.raw.complete) {
        // Node ends the connection once this response is written (`Connection: close`, RFC 9112 9.6).
        reply.header('connection', 'close');
      }
      reply.header('x-served-by', `api-${revision(connection.generation)}-${SUFFIXES[connection.slot]!}`);
      return payload;
    });
  },
});
