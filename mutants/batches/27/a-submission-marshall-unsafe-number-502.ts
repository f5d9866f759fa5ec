import { defineMutant } from '../../mutant.js';
import { pathOf } from '../../support.js';

/*
 * How this happens: the submissions function writes each accepted submission, rows included, as
 * one DynamoDB item through `marshall()` of @aws-sdk/util-dynamodb. Validation runs first and
 * passes, then the write throws: `marshall` refuses any number beyond Number.MAX_SAFE_INTEGER
 * ("... is greater than Number.MAX_SAFE_INTEGER. Use BigInt.") unless `allowImpreciseNumbers` is
 * set, and DynamoDB refuses items over 400 KB. Nobody catches it; the function invocation fails and
 * the platform's HTTP gateway answers with its own 502 page, `{"message":"Internal server error"}`,
 * without the function's headers. The team's fixtures only ever carry small integers and short
 * strings, so every test of theirs gets its 201.
 */
const MAX_ITEM_BYTES = 400 * 1024;

/** Would the table write of these rows throw? */
function rejectedByTable(rows: unknown[]): boolean {
  if (Buffer.byteLength(JSON.stringify(rows), 'utf8') > MAX_ITEM_BYTES) return true;
  const pending: unknown[] = [...rows];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'number' && Math.abs(value) > Number.MAX_SAFE_INTEGER) return true;
    if (Array.isArray(value)) pending.push(...value);
    else if (typeof value === 'object' && value !== null) pending.push(...Object.values(value));
  }
  return false;
}

export default defineMutant({
  description:
    'A submission whose row data holds a number beyond 2^53 (or whose rows exceed 400 KB) passes validation but is answered 502 {"message":"Internal server error"} by the gateway, with no error envelope, and is not created.',
  breaks: { 'SUB-5': 'warn', 'GEN-3': 'warn', 'ERR-1': 'fail' },
  collateral: ['ERR-2', 'RATE-1'],
  modify: (reference) => {
    reference.app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'POST' || pathOf(req) !== '/api/v1/submissions' || reply.statusCode !== 201) return payload;
      const rows = (req.body as { rows?: unknown } | null | undefined)?.rows;
      if (!Array.isArray(rows) || !rejectedByTable(rows)) return payload;
      // The write failed, so the submission does not exist.
      try {
        const created = JSON.parse(String(payload)) as { id?: unknown };
        const index = req.account.submissions.findIndex((s) => s.id === created.id);
        if (index >= 0) req.account.submissions.splice(index, 1);
      } catch {
        // nothing was created that we can name
      }
      reply.removeHeader('x-ratelimit-limit');
      reply.removeHeader('x-ratelimit-remaining');
      reply.removeHeader('x-ratelimit-reset');
      reply.code(502);
      reply.header('content-type', 'application/json');
      return '{"message":"Internal server error"}';
    });
  },
});
