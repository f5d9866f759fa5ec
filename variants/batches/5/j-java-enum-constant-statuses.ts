import { RECORD_STATUSES } from '../../../reference/data.js';
import { defineVariant } from '../../variant.js';

/*
 * Where this happens in the field: a Spring Boot / JPA service. A record's status is a Java enum,
 * `enum RecordStatus { DRAFT, SUBMITTED, APPROVED, REJECTED, ARCHIVED }`, persisted with
 * `@Enumerated(EnumType.STRING)` (the column holds the constant's name) and written by Jackson,
 * whose default for an enum with no `@JsonValue` is `Enum.name()`: `"status": "APPROVED"`. The
 * catalogue's field type is an enum of the same kind (`FieldType { STRING, NUMBER, DATE,
 * PICKLIST }`), so a field's `type` reads `"PICKLIST"`. The team annotated with `@JsonValue` only
 * the enums whose spellings the API document fixes (the error `type`s, `invalid_request_error` and
 * the rest, and the named codes such as `missing_param`): those stay exactly as the document
 * writes them. The same happens on .NET with `JsonStringEnumConverter` and no naming policy
 * (`"Approved"`), and in Go services whose status constants are declared `StatusApproved =
 * "APPROVED"`.
 *
 * Why it is conformant:
 * - States and transitions: "Set of states: not shown." The document names no status value, so
 *   no spelling, letter case included, is a departure from it (open point `record-states`).
 *   Resources and their fields: a record's `status` is a "string" whose "values are listed under
 *   States and transitions", where none are listed; `APPROVED` is a string (RES-3).
 * - The spelling is the same everywhere a record appears: the records list (every page size, the
 *   pages written as text included) and the record's retrieval carry the same value, so a
 *   retrieved record equals its list item (RES-4, RES-7). No filter of the records list is shown,
 *   so no input is affected.
 * - Fields of taxonomy, field and picklist resources are not shown (Other resources; open point
 *   `catalogue-payloads`); a field's `type` in upper case keeps every member and its type, the
 *   list envelope and the retrievals (RES-5).
 * - Everything the document does spell is untouched: the error types of the Errors table and
 *   their statuses (ERR-2), the codes it names (`missing_param`, `rate_limit_exceeded`: ERR-7,
 *   RATE-3), `has_more` and `total_count` (PAG-1).
 */

/** `Enum.name()` of the Java constant for each of the reference's statuses. */
const CONSTANTS = new Map<string, string>(RECORD_STATUSES.map((status) => [status, status.toUpperCase()]));

export default defineVariant({
  description:
    "a Spring Boot service that lets Jackson write its enums by name: a record's status is the Java constant (DRAFT, SUBMITTED, APPROVED, REJECTED, ARCHIVED), and a catalogue field's type likewise (STRING, NUMBER, DATE, PICKLIST); the error types and codes the document spells keep its spelling",
  openPoint: 'record-states',
  atRisk: ['RES-3', 'RES-4', 'RES-5', 'RES-7'],
  modify: ({ state }) => {
    for (const account of state.store.accounts) {
      const records = account.data.records;
      // Per account, on the instance: the module's RECORD_STATUSES is shared by every server of the process.
      const at = records.at.bind(records);
      const sliceJson = records.sliceJson.bind(records);
      records.at = (index) => {
        const record = at(index);
        return { ...record, status: CONSTANTS.get(record.status) ?? record.status };
      };
      // The pages written as text: each item starts `{"id":"…","status":"…"`, ids are plain ASCII.
      records.sliceJson = (start, end) =>
        sliceJson(start, end).replace(
          /(\{"id":"[^"\\]*","status":)"([a-z]+)"/g,
          (_, head: string, status: string) => `${head}"${CONSTANTS.get(status) ?? status}"`,
        );
      for (const field of account.data.fields) field.type = field.type.toUpperCase();
    }
  },
});
