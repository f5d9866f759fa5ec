import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: Apache httpd decides keep-alive with the macro
 * `ap_status_drops_connection` (httpd.h): a response with status 400, 408, 411, 413, 414, 500, 503
 * or 501 ends its connection. Apache Tomcat copied the list into its HTTP/1.1 processor
 * (`Http11Processor.statusDropsConnection`, "Use the same list of codes as Apache/httpd"), which
 * turns keep-alive off in `prepareResponse`: the response carries `Connection: close` and the socket
 * is closed once it is written; so every Spring Boot application on Tomcat does it. Grizzly
 * (GlassFish, Payara) has the same list plus 417 and 505. The idea: after a malformed request or a
 * server fault the state of the connection is not trusted, so the next request gets a fresh one.
 *
 * Here: every response with one of these statuses carries `Connection: close` and its
 * connection is closed after it. Of those, the reference sends 400 (a missing required parameter,
 * a body that is not JSON, an unreadable URL), 413 (a body over the size limit) and 500; Fastify
 * already closes after a body it could not read (the 400 for invalid JSON, the 413), and this
 * variant closes after all of them. A response sent before its request was read whole keeps the
 * reference's handling (Node reads and discards the rest), so that no client is reset while it
 * still sends. Every other response keeps the connection open as the reference does. Statuses,
 * headers otherwise, and bodies are the reference's.
 *
 * Why it is conformant:
 * - The document leaves HTTP details open, connection reuse among them (open point
 *   `http-transport`). RFC 9112 section 9.6: a server that sends the `close` connection option
 *   initiates the close after that response, and a client that receives it stops sending requests
 *   on that connection and opens a new one; nothing is lost. Each such response is complete
 *   (Content-Length framed) before the close, so every body still parses as JSON (GEN-1).
 * - What is said is the reference's: 400 for a missing parameter with `missing_param` and the
 *   parameter named (ERR-3, ERR-7, KEY-8), 400 for a body that is not JSON (GEN-4), a row without
 *   `data` (SUB-2), no 5xx for client input (GEN-3).
 */

/** httpd's ap_status_drops_connection (and Tomcat's Http11Processor.statusDropsConnection). */
const DROPS_CONNECTION: ReadonlySet<number> = new Set([400, 408, 411, 413, 414, 500, 501, 503]);

export default defineVariant({
  description:
    "Apache httpd's and Tomcat's keep-alive rule: responses with status 400, 408, 411, 413, 414, 500, 501 or 503 carry Connection: close and the connection is closed",
  openPoint: 'http-transport',
  atRisk: ['GEN-1', 'GEN-4', 'ERR-3', 'ERR-7', 'KEY-8', 'SUB-2'],
  modify: ({ app }) => {
    app.addHook('onSend', async (req, reply, payload) => {
      // Node's server closes the socket after a response it sent with `Connection: close`.
      if (DROPS_CONNECTION.has(reply.statusCode) && req.raw.complete) reply.header('connection', 'close');
      return payload;
    });
  },
});
