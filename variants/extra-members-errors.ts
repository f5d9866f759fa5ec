import { randomUUID } from 'node:crypto';
import { rewriteJson } from '../mutants/support.js';
import { defineVariant } from './variant.js';

/**
 * Errors carry members the document does not list: each error object a doc_url (the page about
 * its type) and the request_id, and the body the request_id at its top level too, so that a
 * support ticket can quote it.
 */
export default defineVariant({
  description: 'every error object also carries doc_url and request_id, and every error body a top-level request_id',
  openPoint: 'extra-members',
  atRisk: ['ERR-1', 'ERR-2', 'ERR-5', 'ERR-7', 'ERR-8', 'ERR-9', 'AUTH-3', 'AUTH-7', 'AUTH-8', 'RATE-3', 'SUB-2', 'GEN-4', 'KEY-6'],
  modify: (reference) => {
    rewriteJson(reference, (body, _req, reply) => {
      const error = (body as { error?: unknown } | null)?.error;
      if (reply.statusCode < 400 || typeof error !== 'object' || error === null) return body;
      const requestId = `req_${randomUUID().replace(/-/g, '')}`;
      const type = (error as { type?: unknown }).type;
      const docUrl = `https://docs.example.com/api/v1/errors#${typeof type === 'string' ? type : 'unknown'}`;
      return { ...body, error: { ...error, doc_url: docUrl, request_id: requestId }, request_id: requestId };
    });
  },
});
