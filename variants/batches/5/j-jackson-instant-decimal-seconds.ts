import { randomBytes } from 'node:crypto';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: a Spring Boot service. Its entities carry `java.time.Instant`
 * fields (`ApiKey.createdAt`, `ApiKey.lastUsedAt`, `Submission.createdAt`, read from PostgreSQL
 * `timestamptz` columns), and the one `ObjectMapper` of the application registers
 * `JavaTimeModule` without turning off `SerializationFeature.WRITE_DATES_AS_TIMESTAMPS`, which is
 * on by default (Spring Boot turns it off only when `spring.jackson.serialization.
 * write-dates-as-timestamps=false` is set, and many services never set it). With it on, and with
 * `WRITE_DATE_TIMESTAMPS_AS_NANOSECONDS` also on by default, jackson-datatype-jsr310's
 * `InstantSerializer` writes an Instant as a JSON number: the Unix time in seconds with nine
 * fraction digits, `DecimalUtils.toBigDecimal(epochSecond, nano)` (`1767225600.123000000`; a whole
 * second still gets `.000000000`, "to avoid interpretation as integral number"). A null Instant is
 * written `null`. The column keeps milliseconds here (the service writes `Instant.now()` truncated
 * to millis), so the last six digits are zeros. Other stacks ship the same shape: Python's
 * `time.time()` put straight into a `json.dumps` payload, PHP's `microtime(true)`.
 *
 * Why it is conformant:
 * - Other resources: "An API key has a name and a last-use time". How that time is written is not
 *   shown (open point `last-use-format`: "a date-time string, or a Unix time in seconds or
 *   milliseconds"). A JSON number counting seconds since the Unix epoch is a Unix time in seconds;
 *   its fraction only adds precision. (Two readings: "Unix time in seconds" as a whole number,
 *   or as any number of seconds; the document fixes no format at all, so this variant takes the
 *   wider one, which is what Jackson, Python's `time.time()` and PHP's `microtime(true)` write.)
 *   KEY-3: the key list shows each key's name and last-use time
 *   under the profile's names (`name`, `last_used_at`), unchanged; a key never used still shows
 *   `null`, as in the reference. KEY-7: each use writes the request's time, so the number grows
 *   with every later use, exactly as the reference's ISO string does (same millisecond clock).
 * - The creation response (KEY-1) and the list keep every member the reference sends; only the
 *   two time members change representation, and `created_at` is a member the document does not
 *   list (extra members are not excluded). The secret is untouched (KEY-1, KEY-4: no response
 *   carries any part of it; a time is written from the clock alone).
 * - Submission creation: its response body is not shown; SUB-1 asks only for 201, which stays.
 *   The submission list (SUB-4) keeps the envelope (PAG-1) and its filters; its items'
 *   `created_at` is written the same way, by the same ObjectMapper.
 * - GEN-1: `1767225600.123000000` is a JSON number (RFC 8259 section 6: int frac); every body
 *   still parses as JSON, and every value keeps its type in the document's tables (no listed
 *   field of a workspace, governance model or record is touched; their ISO strings inside record
 *   `data` are payload, not Instants, and stay strings).
 * - Nothing else changes: statuses, errors, rate limiting, headers.
 */

/** jackson-datatype-jsr310's `DecimalUtils.toBigDecimal(seconds, nanos)`, as `BigDecimal.toString()` writes it. */
function jacksonInstant(iso: string): string | null {
  const ms = Date.parse(iso);
  // Times of this service are all after the epoch; anything else is left as it was.
  if (!Number.isFinite(ms) || ms <= 0) return null;
  const seconds = Math.floor(ms / 1000);
  const nanos = (ms - seconds * 1000) * 1_000_000;
  return `${seconds}.${String(nanos).padStart(9, '0')}`;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export default defineVariant({
  description:
    "a Spring Boot service whose ObjectMapper keeps Jackson's default WRITE_DATES_AS_TIMESTAMPS: the key's last_used_at and created_at (and a submission's created_at) are JSON numbers, Unix seconds with nine fraction digits (1767225600.123000000), null while never used",
  openPoint: 'last-use-format',
  atRisk: ['KEY-3', 'KEY-7', 'KEY-1', 'SUB-1', 'SUB-4', 'GEN-1'],
  modify: ({ app, state }) => {
    const { paths, apiKeyFields } = state.profile;
    /** The members that hold an Instant in the entities that have one. */
    const instants = ['created_at', ...(apiKeyFields.lastUsedAt ? [apiKeyFields.lastUsedAt] : [])];
    /** Route patterns (Fastify syntax) whose bodies are key or submission entities, or lists of them. */
    const routes = new Set(
      ['/api/v1/api_keys', '/api/v1/submissions', paths.apiKeyList, paths.submissionList]
        .filter((path): path is string => typeof path === 'string')
        .map((path) => path.replace('{id}', ':id')),
    );
    // The number is written in place of a marker no input can forge: the nonce is this server's own.
    const nonce = `jsr310-${randomBytes(8).toString('hex')}`;
    const marker = new RegExp(`"${nonce}:(\\d+\\.\\d{9})"`, 'g');

    app.addHook('onSend', async (req, reply, payload) => {
      if (typeof payload !== 'string' || reply.statusCode >= 300) return payload;
      if (!routes.has(req.routeOptions.url ?? '')) return payload;
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        return payload;
      }
      if (!isObject(body)) return payload;
      const entities = Array.isArray(body.items) ? body.items : [body];
      let changed = false;
      for (const entity of entities) {
        if (!isObject(entity)) continue;
        for (const member of instants) {
          const value = entity[member];
          if (typeof value !== 'string') continue;
          const decimal = jacksonInstant(value);
          if (decimal === null) continue;
          entity[member] = `${nonce}:${decimal}`;
          changed = true;
        }
      }
      return changed ? JSON.stringify(body).replace(marker, '$1') : payload;
    });
  },
});
