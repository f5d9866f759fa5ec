import fc from 'fast-check';

// Invalid submission bodies for SUB-2 and SUB-3: one fault each, the rest of the body valid, the
// fault at a random row where it sits in a row. The faults are those of the clause catalogue:
// rows not an array, a row not an object, `data` missing, `data` not an object, ids of the
// wrong type. `null` is left out on purpose: the document does not say whether a null counts as
// missing (400) or invalid (422), so the errors suite judges it separately, accepting both.

export const INVALID_SUBMISSION_KINDS = [
  'rows-not-array',
  'row-not-object',
  'data-missing',
  'data-not-object',
  'workspace-id-wrong-type',
  'taxonomy-id-wrong-type',
] as const;
export type InvalidSubmissionKind = (typeof INVALID_SUBMISSION_KINDS)[number];

/** The valid parts an invalid body is built around. */
export interface SubmissionBase {
  readonly workspaceId: string;
  readonly taxonomyId: string;
  /** A valid row `data` object (tagged with the run id by the caller). */
  readonly data: Readonly<Record<string, unknown>>;
  /**
   * Any data object is accepted (the profile says so): each valid row then carries its index as
   * `seq`, so that rows differ. Otherwise each is `data` as it is: a target that checks rows
   * against the taxonomy's fields would refuse the member, and name that fault, not the one made.
   */
  readonly anyData?: boolean;
}

export interface InvalidSubmission {
  readonly kind: InvalidSubmissionKind;
  readonly body: Record<string, unknown>;
  /** Plain words for a report: "rows[2].data is a string". */
  readonly fault: string;
  /** Input names a `param` may give for this fault (it names one of them). */
  readonly params: readonly string[];
  /** The body member that holds the fault: `rows`, `workspace_id`, ... */
  readonly member: string;
  /** Index of the faulty row; null for a fault outside the rows. */
  readonly rowIndex: number | null;
  /** Statuses the document allows: 422, and 400 too for a row without `data` (SUB-2). */
  readonly statuses: readonly number[];
}

/** Values of the wrong JSON type for a string id, an object, or an array. */
const notAString = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
);
const notAnObject = fc.oneof(fc.string({ maxLength: 16 }), fc.integer(), fc.boolean(), fc.array(fc.integer(), { maxLength: 3 }));
const notAnArray = fc.oneof(fc.string({ maxLength: 16 }), fc.integer(), fc.boolean(), fc.constant({ data: {} }));

const typeName = (value: unknown) => (Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`);

/** A body with exactly one fault of the given kinds. */
export function invalidSubmission(base: SubmissionBase, kinds: readonly InvalidSubmissionKind[] = INVALID_SUBMISSION_KINDS): fc.Arbitrary<InvalidSubmission> {
  const body = (rows: unknown, extra: Record<string, unknown> = {}) => ({ workspace_id: base.workspaceId, taxonomy_id: base.taxonomyId, rows, ...extra });
  const rows = (count: number) => Array.from({ length: count }, (_, seq) => ({ data: base.anyData ? { ...base.data, seq } : { ...base.data } }));
  /** `count` valid rows and the index of the one to spoil. */
  const placed = fc.integer({ min: 1, max: 5 }).chain((count) => fc.tuple(fc.constant(count), fc.nat(count - 1)));
  const inRow = (kind: InvalidSubmissionKind, bad: fc.Arbitrary<unknown>, spoil: (index: number, value: unknown) => { row: unknown; fault: string }) =>
    fc.tuple(placed, bad).map(([[count, index], value]): InvalidSubmission => {
      const all: unknown[] = rows(count);
      const { row, fault } = spoil(index, value);
      all[index] = row;
      const statuses = kind === 'data-missing' ? [400, 422] : [422];
      return { kind, body: body(all), fault, params: ['rows', 'data'], member: 'rows', rowIndex: index, statuses };
    });
  const wrongId = (kind: InvalidSubmissionKind, member: 'workspace_id' | 'taxonomy_id') =>
    notAString.map((value): InvalidSubmission => ({
      kind,
      body: body(rows(1), { [member]: value }),
      fault: `${member} is ${typeName(value)}`,
      params: [member],
      member,
      rowIndex: null,
      statuses: [422],
    }));

  const byKind: Record<InvalidSubmissionKind, fc.Arbitrary<InvalidSubmission>> = {
    'rows-not-array': notAnArray.map((value) => ({
      kind: 'rows-not-array',
      body: body(value),
      fault: `rows is ${typeName(value)}`,
      params: ['rows'],
      member: 'rows',
      rowIndex: null,
      statuses: [422],
    })),
    'row-not-object': inRow('row-not-object', notAnObject, (index, value) => ({ row: value, fault: `rows[${index}] is ${typeName(value)}` })),
    'data-missing': inRow('data-missing', fc.constantFrom({}, { Data: {} }, { values: { a: 1 } }), (index, value) => ({
      row: value,
      fault: `rows[${index}] has no data`,
    })),
    'data-not-object': inRow('data-not-object', notAnObject, (index, value) => ({ row: { data: value }, fault: `rows[${index}].data is ${typeName(value)}` })),
    'workspace-id-wrong-type': wrongId('workspace-id-wrong-type', 'workspace_id'),
    'taxonomy-id-wrong-type': wrongId('taxonomy-id-wrong-type', 'taxonomy_id'),
  };
  return fc.oneof(...kinds.map((kind) => byKind[kind]));
}
