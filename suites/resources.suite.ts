import {
  BESIDE,
  check,
  type CheckContext,
  type CheckOptions,
  type SchemaName,
  type CollectionName,
  idsOf,
  spread,
  fillPath,
  type Envelope,
  profileFact,
} from '../src/kit.js';
import { chooseByValueClasses, describeDifference, memberDifferences } from './support/members.js';
import { retrievedResource } from './support/retrieval.js';

// RES: resources and their fields (API document, Resources and their fields).

/** `values`: the value classes the document's fields of the resource take beyond the plain (docs/coverage.md). */
const SHAPED: readonly {
  clause: 'RES-1' | 'RES-2' | 'RES-3';
  collection: CollectionName;
  schema: SchemaName;
  what: string;
  values?: CheckOptions['values'];
}[] = [
  { clause: 'RES-1', collection: 'workspaces', schema: 'workspace', what: 'workspace' },
  { clause: 'RES-2', collection: 'governanceModels', schema: 'governance-model', what: 'governance model', values: ['null'] },
  { clause: 'RES-3', collection: 'records', schema: 'record', what: 'record' },
];

for (const { clause, collection, schema, what, values } of SHAPED) {
  check(
    clause,
    `every listed ${what} has the document's fields and types`,
    async (t) => {
      const list = t.lists.endpoint(collection).list!;
      const { res, page } = await t.lists.fetchPage(list, { limit: 100 });
      if (page.items.length === 0) t.skip(`${list} is empty: no ${what} to look at`);
      t.lists.ensureItems(page.items, schema, what, res);
      if (page.total_count > page.items.length) {
        const lastPage = Math.ceil(page.total_count / 100);
        const last = await t.lists.fetchPage(list, { limit: 100, page: lastPage });
        t.lists.ensureItems(last.page.items, schema, what, last.res);
      }
    },
    { key: 'listed', values, ...BESIDE },
  );

  check(
    clause,
    `every retrieved ${what} has the document's fields and types`,
    async (t) => {
      const { list, item } = t.lists.endpoint(collection);
      if (!item) t.notApplicable(`the profile declares no retrieval path for ${what}s`);
      const { page } = await t.lists.fetchPage(list!, { limit: 100 });
      if (page.items.length === 0) t.skip(`${list} is empty: no ${what} to retrieve`);
      for (const id of spread(idsOf(page.items), Math.min(3, t.lists.retrievalBudget()))) {
        const res = await t.http.get(fillPath(item!, id));
        t.ensure(res.status === 200, () => `retrieving ${what} ${id} answered ${res.status}${pathHint(t, collection, res.status)}`, res);
        t.lists.ensureItems([retrievedResource(t.json(res), id)], schema, `retrieved ${what}`, res);
      }
    },
    { key: 'retrieved', values, ...BESIDE },
  );
}

/** Where the profile declares each collection's retrieval path. */
const ITEM_FACT: Partial<Record<CollectionName, string>> = {
  workspaces: 'paths.workspace',
  governanceModels: 'paths.governanceModel',
  records: 'paths.record',
  taxonomies: 'paths.taxonomy',
  fields: 'paths.field',
  picklists: 'paths.picklist',
};

/** A listed item not found at the declared path is explained by a wrong path as well as by the target: the fact is named. */
function pathHint(t: CheckContext, collection: CollectionName, status: number): string {
  const fact = ITEM_FACT[collection];
  return fact && (status === 404 || status === 405) ? ` (${profileFact(t.profile, fact)}: is the path right?)` : '';
}

/** Retrieves a spread of listed items; returns each list item beside its retrieval. */
async function retrieveListed(
  t: CheckContext,
  collection: CollectionName,
  what: string,
): Promise<{ listed: Record<string, unknown>; fetched: unknown; res: Awaited<ReturnType<CheckContext['http']['get']>> }[]> {
  const { list, item } = t.lists.endpoint(collection);
  const { page } = await t.lists.fetchPage(list!, { limit: 100 });
  if (page.items.length === 0) t.skip(`${list} is empty: no ${what} to retrieve`);
  const out = [];
  const chosen = spread(page.items as Record<string, unknown>[], t.lists.retrievalBudget());
  for (const listed of chosen) {
    const id = listed.id;
    t.ensure(typeof id === 'string', `a listed ${what} has no string id`);
    const res = await t.http.get(fillPath(item!, id as string));
    t.ensure(res.status === 200, () => `${what} ${String(id)} is listed but retrieving it answered ${res.status}${pathHint(t, collection, res.status)}`, res);
    out.push({ listed, fetched: t.json(res), res });
  }
  return out;
}

const RETRIEVABLE: readonly { collection: CollectionName; what: string }[] = [
  { collection: 'workspaces', what: 'workspace' },
  { collection: 'governanceModels', what: 'governance model' },
  { collection: 'records', what: 'record' },
];

for (const { collection, what } of RETRIEVABLE) {
  check(
    'RES-4',
    `every listed ${what} can be retrieved by its id`,
    async (t) => {
      await retrieveListed(t, collection, what);
    },
    { key: `retrieve-listed-${collection}`, ...BESIDE },
  );
}

const TAXONOMY_PARTS: readonly { collection: CollectionName; what: string }[] = [
  { collection: 'taxonomies', what: 'taxonomy' },
  { collection: 'fields', what: 'field' },
  { collection: 'picklists', what: 'picklist' },
];

for (const { collection, what } of TAXONOMY_PARTS) {
  check(
    'RES-5',
    `${what} resources list in the envelope and each can be retrieved by id`,
    async (t) => {
      const { list, item } = t.lists.endpoint(collection);
      const { page } = await t.lists.fetchPage(list!, { limit: 100 });
      if (page.items.length === 0) t.skip(`${list} is empty: no ${what} to retrieve`);
      for (const id of spread(idsOf(page.items), t.lists.retrievalBudget())) {
        const res = await t.http.get(fillPath(item!, id));
        t.ensure(res.status === 200, () => `${what} ${id} is listed but retrieving it answered ${res.status}${pathHint(t, collection, res.status)}`, res);
        t.json(res);
      }
    },
    { key: `list-and-retrieve-${collection}`, ...BESIDE },
  );
}

/** Differences RES-7 names in its reason; every differing resource is evidence, up to this many. */
const SHOWN_DIFFERENCES = 5;

for (const { collection, what } of [...RETRIEVABLE, ...TAXONOMY_PARTS]) {
  check(
    'RES-7',
    `a retrieved ${what} carries every member of its list item with the same value and type, null included`,
    async (t) => {
      const { list, item } = t.lists.endpoint(collection);
      if (!list || !item) t.notApplicable(`the profile declares no ${list ? 'retrieval path' : 'list'} for ${what}s`);
      // The whole collection (up to 10000, in one request, as RES-6 reads it), or the first 100 where
      // the largest page is not served (PAG-4's finding); within the budget of retrievals, the items
      // whose members show a kind of value no other chosen item shows first.
      let page: Envelope;
      try {
        ({ page } = await t.lists.fetchPage(list!, { limit: 10_000 }));
      } catch {
        ({ page } = await t.lists.fetchPage(list!, { limit: 100 }));
      }
      if (page.items.length === 0) t.skip(`${list} is empty: no ${what} to retrieve`);
      const differences: string[] = [];
      const evidence: Awaited<ReturnType<CheckContext['http']['get']>>[] = [];
      let compared = 0;
      let refused: Awaited<ReturnType<CheckContext['http']['get']>> | null = null;
      for (const listed of chooseByValueClasses(page.items as Record<string, unknown>[], t.lists.retrievalBudget())) {
        const id = listed?.id;
        t.ensure(typeof id === 'string', `a listed ${what} has no string id`);
        const res = await t.http.get(fillPath(item!, id as string));
        // A listed resource that cannot be retrieved is RES-4's (RES-5's) finding; here there is nothing to compare.
        if (res.status !== 200) {
          refused ??= res;
          continue;
        }
        compared++;
        const found = memberDifferences(listed, retrievedResource(t.json(res), id as string));
        if (found.length === 0) continue;
        differences.push(...found.map((d) => `${what} ${String(id)}: ${describeDifference(d)}`));
        evidence.push(res);
      }
      if (compared === 0)
        t.skip(
          `no listed ${what} could be retrieved (answered ${refused?.status}): ${collection === 'workspaces' || collection === 'governanceModels' || collection === 'records' ? 'RES-4' : 'RES-5'} judges that`,
        );
      const more = differences.length > SHOWN_DIFFERENCES ? `; and ${differences.length - SHOWN_DIFFERENCES} more` : '';
      t.ensure(differences.length === 0, () => `${differences.slice(0, SHOWN_DIFFERENCES).join('; ')}${more}`, ...evidence.slice(0, SHOWN_DIFFERENCES));
    },
    { key: `members-${collection}`, values: ['null', 'empty'], ...BESIDE },
  );
}

const UNIQUE: readonly { collection: CollectionName; what: string }[] = [
  { collection: 'workspaces', what: 'workspace' },
  { collection: 'governanceModels', what: 'governance model' },
  { collection: 'records', what: 'record' },
  { collection: 'taxonomies', what: 'taxonomy' },
  { collection: 'fields', what: 'field' },
  { collection: 'picklists', what: 'picklist' },
];

for (const { collection, what } of UNIQUE) {
  check(
    'RES-6',
    `${what} ids are unique within their collection`,
    async (t) => {
      const { list } = t.lists.endpoint(collection);
      if (!list) t.notApplicable(`the profile declares no list of ${what}s`);
      // One page at the largest size the document allows: a whole collection of up to 10000.
      const { res, page } = await t.lists.fetchPage(list!, { limit: 10_000 });
      if (page.items.length === 0) t.skip(`${list} is empty`);
      const seen = new Set<string>();
      for (const id of idsOf(page.items)) {
        t.ensure(!seen.has(id), () => `${what} id ${id} appears twice in one list`, res);
        seen.add(id);
      }
    },
    { key: `unique-ids-${collection}`, values: ['boundary'], ...BESIDE },
  );
}
