import { defineVariant } from './variant.js';

/**
 * Taxonomies, fields and picklists carry more than an id and a name: nested objects and arrays
 * of objects (their payloads are not shown). The list item and the retrieval carry the same ones.
 */
export default defineVariant({
  description:
    'gives taxonomies, fields and picklists extra nested members: "meta" {created_at, tags, owner}, "options" [{value, label, position}], "fields" [{id, name}]',
  openPoint: 'catalogue-payloads',
  atRisk: ['RES-5', 'RES-6', 'RES-7', 'PAG-1', 'PAG-8', 'AUTH-6'],
  modify: ({ state }) => {
    for (const account of state.store.accounts) {
      const { taxonomies, fields, picklists } = account.data;
      const meta = (n: number, kind: string) => ({
        created_at: new Date(Date.UTC(2025, 0, 1 + n, 9, 30)).toISOString(),
        updated_at: null,
        tags: n % 2 === 0 ? [] : [kind, `group-${n % 3}`],
        owner: { type: 'account', id: account.id, display: { name: 'Conformance', initials: 'C' } },
      });
      taxonomies.forEach((taxonomy, n) => {
        Object.assign(taxonomy, {
          meta: meta(n, 'taxonomy'),
          fields: taxonomy.field_ids.map((id) => ({ id, name: fields.find((f) => f.id === id)?.name ?? null })),
        });
      });
      fields.forEach((field, n) => {
        Object.assign(field, {
          meta: meta(n, 'field'),
          constraints: {
            required: n % 2 === 0,
            max_length: field.type === 'string' ? 255 : null,
            allowed: field.type === 'picklist' ? { picklist: { id: field.picklist_id } } : null,
          },
          options: [],
        });
      });
      picklists.forEach((picklist, n) => {
        Object.assign(picklist, {
          meta: meta(n, 'picklist'),
          options: picklist.values.map((value, position) => ({ value, label: value.toUpperCase(), position, extra: { deprecated: false } })),
        });
      });
    }
  },
});
