import { defineVariant } from './variant.js';

/** The member a list is sorted by: the item's name, else a record's title, else its id. */
function sortKey(item: unknown): string {
  const it = (item ?? {}) as { name?: unknown; data?: { title?: unknown }; id?: unknown };
  if (typeof it.name === 'string') return it.name;
  if (typeof it.data?.title === 'string') return it.data.title;
  return typeof it.id === 'string' ? it.id : '';
}

const byText = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/**
 * ORDER BY name, id: every list is alphabetical by its name-like member (workspaces, governance
 * models, taxonomies, fields, picklists and keys by name; records by their data's title;
 * submissions, which have no name, by id), ties broken by id, so every page is cut from one order.
 */
export default defineVariant({
  description: 'orders every list alphabetically by name (a record by its title), ties broken by id, the same order on every page',
  openPoint: 'list-order',
  atRisk: ['PAG-2', 'PAG-8', 'PAG-10', 'RES-4', 'RES-7', 'AUTH-6', 'KEY-3', 'KEY-6', 'SUB-4'],
  modify: ({ behaviour }) => {
    behaviour.listOrder = (total, itemAt) => {
      const keyed = Array.from({ length: total }, (_, index) => {
        const item = itemAt(index);
        const id = (item as { id?: unknown } | undefined)?.id;
        return { index, key: sortKey(item), id: typeof id === 'string' ? id : '' };
      });
      keyed.sort((a, b) => byText.compare(a.key, b.key) || (a.id < b.id ? -1 : a.id > b.id ? 1 : a.index - b.index));
      return keyed.map((k) => k.index);
    };
  },
});
