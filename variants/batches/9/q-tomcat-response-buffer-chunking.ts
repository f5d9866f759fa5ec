import { Readable } from 'node:stream';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: Apache Tomcat, the default server of Spring Boot, buffers what a
 * servlet writes in a response buffer of 8 KiB (`ServletResponse.getBufferSize()`, 8192 by
 * default). A response that ends before the buffer fills is sent with a `Content-Length` Tomcat
 * computes itself when the output is closed; a response that overflows the buffer is committed
 * before its length is known and goes out with `Transfer-Encoding: chunked`, one chunk per buffer
 * flush. Spring MVC's Jackson converter writes JSON straight to the output stream without a
 * length, so a Spring Boot API answers an error or a single resource with a Content-Length and a
 * long list page chunked. Jetty does the same with its 32 KiB output buffer, Go's net/http with a
 * 2 KiB one.
 *
 * Here: a body of more than 8192 bytes is sent chunked, in chunks of at most 8192 bytes, with no
 * Content-Length; every smaller body keeps the reference's Content-Length. A HEAD request answers
 * with the headers its GET would have: for a long page, no Content-Length (RFC 9110 section 9.3.2
 * lets a HEAD response omit header fields whose values are only known while the content is
 * generated). Status codes, other headers and the bytes of every body are the reference's.
 *
 * Why it is conformant:
 * - The document leaves HTTP details open, transfer encoding among them (open point
 *   `http-transport`). RFC 9112 section 7.1: chunked transfer coding frames the same content, and
 *   an HTTP/1.1 recipient MUST be able to parse it. The JSON each client reads is byte for byte the
 *   reference's (GEN-1).
 * - The long bodies are the ones the suite reads most: record pages at the default limit and above
 *   (PAG-1, PAG-2, PAG-7, PAG-8 walks), long key lists; their items, `has_more` and `total_count` are
 *   unchanged, and a scan for parts of a secret (KEY-3, KEY-4) reads the same text.
 */

/** Tomcat's default response buffer (ServletResponse.getBufferSize()). */
const RESPONSE_BUFFER = 8 * 1024;

export default defineVariant({
  description:
    "Tomcat's response buffer: bodies that fit its 8 KiB get a Content-Length, longer ones (list pages of records) are sent with Transfer-Encoding: chunked in 8 KiB chunks",
  openPoint: 'http-transport',
  atRisk: ['GEN-1', 'PAG-1', 'PAG-2', 'PAG-7', 'PAG-8', 'KEY-3', 'KEY-4'],
  modify: ({ app }) => {
    app.addHook('onSend', async (_req, reply, payload) => {
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
      const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
      if (bytes.length <= RESPONSE_BUFFER) return payload;
      // Committed before the end: the length is not known, so no Content-Length (Node chunks the body).
      reply.removeHeader('content-length');
      const flushes: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += RESPONSE_BUFFER) flushes.push(bytes.subarray(at, at + RESPONSE_BUFFER));
      return Readable.from(flushes, { objectMode: false });
    });
  },
});
