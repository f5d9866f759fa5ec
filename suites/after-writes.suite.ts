import { apiPathOf, check, type CheckContext, type Exchange, type RunContext, collections, type CollectionName } from '../src/kit.js';
import { listAs, sharedItem } from './support/cross-account.js';
import { keyListSettled } from './support/key-list-settled.js';
import { listAll } from './support/list-all.js';
import { SUBMISSIONS_PATH, taxonomyIds, workspaceIds } from './support/submissions.js';
import type { WalkClause, WalkResult } from './support/walk.js';
import { judgeWalks, walkAtLimits } from './support/walks.js';

// Lists as the run's own writes left them (API document, Pagination envelope; issue 27). The
// pagination suite judges every list before anything writes; by now the run has deleted the keys
// it created (auth, keys and rate-limits suites) and created its submissions (submissions suite).
// The key list and the submission list must still agree with themselves (total_count, has_more
// and the items: PAG-6, PAG-7, PAG-8), and a filtered submission list's total_count must count what
// matches (SUB-4). Reads only, with the main key, after the rate-limit suite's waits, which leave
// its budget whole; nothing is created for the purpose.

/** The lists the run writes to, and the writes that changed them. */
const WRITTEN: Partial<Record<CollectionName, string>> = {
  apiKeys: 'API keys, after the run deleted its keys',
  submissions: "submissions, after the run's submissions",
};

/** One item a page makes every page a boundary (has_more on each); 100 counts the items in one or a few requests. */
const LIMITS = [100, 1] as const;

const applies = (name: CollectionName) => (run: RunContext) => {
  if (run.readOnly) return 'read-only: the run wrote nothing, the lists are as the pagination suite judged them';
  return collections(run.profile)[name].list ? true : `the profile declares no list path for ${name === 'apiKeys' ? 'API keys' : name}`;
};

/**
 * The walks of a written list, made once by the first check that judges them; the key list's once
 * it shows the run's deletions (a list from an index may show them late: `key-list-settled.ts`).
 */
function walksOf(t: CheckContext, name: CollectionName): Promise<WalkResult[]> {
  const { list, idField } = t.lists.endpoint(name);
  return t.once(`walks after writes of ${name}`, async () => {
    if (name === 'apiKeys') await keyListSettled(t);
    return walkAtLimits(t, list!, idField, LIMITS);
  });
}

for (const [name, label] of Object.entries(WRITTEN) as [CollectionName, string][]) {
  for (const clause of ['PAG-6', 'PAG-7', 'PAG-8'] as const satisfies readonly WalkClause[]) {
    const what = {
      'PAG-6': 'has_more is exact on every page',
      'PAG-7': 'total_count items arrive in ceil(total_count/limit) pages',
      'PAG-8': 'each id once and every page but the last full',
    }[clause];
    check(clause, `${label}: ${what} of walks at limits ${LIMITS.join(', ')}`, async (t) => judgeWalks(t, await walksOf(t, name), clause), {
      key: `walks-after-writes-${name === 'apiKeys' ? 'api-keys' : name}`,
      // The walks are made once, by the PAG-6 check; PAG-7's and PAG-8's judge them.
      ...(clause === 'PAG-6' ? {} : { judges: ['PAG-6'] as const }),
      states: name === 'apiKeys' ? ['deleted', 'after writes'] : ['after writes'],
      values: ['boundary'],
      // The submission list walked whole: no filter (the filtered lists are judged below).
      ...(name === 'submissions' ? { filters: ['none'] as const } : {}),
      applies: applies(name),
    });
  }
}

/** The declared submission filters, each with the workspace or taxonomy the run submitted to. */
function writtenFilters(t: CheckContext): { what: 'workspace' | 'taxonomy'; filter: string; id: string }[] {
  const filters = t.profile.submissions.listFilters;
  return [
    { what: 'workspace' as const, filter: filters?.workspace, id: workspaceIds(t)[0] },
    { what: 'taxonomy' as const, filter: filters?.taxonomy, id: taxonomyIds(t)[0] },
  ].filter((f): f is { what: 'workspace' | 'taxonomy'; filter: string; id: string } => typeof f.filter === 'string' && f.id !== undefined);
}

check(
  'SUB-4',
  "after the run's submissions, the list unfiltered and filtered by the workspace and the taxonomy they went to hold as many items as their total_count says",
  async (t) => {
    const listPath = t.profile.paths.submissionList!;
    let counted = 0;
    // Unfiltered, every submission matches.
    const whole = await listAll(t, listPath, {});
    if (whole.complete) {
      counted++;
      t.ensure(
        whole.items.length === whole.page.total_count,
        () => `${listPath}, unfiltered, lists ${whole.items.length} submissions over its pages but says total_count ${whole.page.total_count}`,
        whole.res,
      );
    }
    for (const { what, filter, id } of writtenFilters(t)) {
      const listed = await listAll(t, listPath, { [filter]: id });
      if (!listed.complete) continue;
      counted++;
      t.ensure(
        listed.items.length === listed.page.total_count,
        () =>
          `${listPath}?${filter}=${id}, filtered by the ${what} the run submitted to, lists ${listed.items.length} submissions over its pages but says total_count ${listed.page.total_count}`,
        listed.res,
      );
    }
    if (counted === 0) t.skip('the list holds more submissions than a few pages, unfiltered and filtered: none could be counted whole');
  },
  {
    key: 'filtered-totals-after-writes',
    states: ['after writes'],
    filters: ['none', 'each alone'],
    applies: (run) => {
      if (run.readOnly) return "read-only: the run created no submission, SUB-4's own check judges the filters";
      return run.profile.paths.submissionList ? true : 'not declared: the submission list path';
    },
  },
);

check(
  'PAG-6',
  'submissions filtered by the workspace and by the taxonomy the run submitted to: at limit 1, has_more is true on the first page and false on the last that total_count gives',
  async (t) => {
    const listPath = t.profile.paths.submissionList!;
    const filtered = writtenFilters(t);
    if (filtered.length === 0) t.skip('the target lists no workspace and no taxonomy to filter by');
    let judged = 0;
    // Two pages of one item each, whatever the list's size: the first, and the last total_count gives.
    for (const { filter, id } of filtered) {
      const label = `${listPath}?${filter}=${id}&limit=1`;
      const first = await t.lists.fetchPage(listPath, { [filter]: id, limit: 1 });
      const total = first.page.total_count;
      if (total === 0) continue;
      judged++;
      if (total > 1) t.ensure(first.page.has_more === true, () => `${label} says has_more false on page 1 of ${total}`, first.res);
      const last = total === 1 ? first : await t.lists.fetchPage(listPath, { [filter]: id, limit: 1, page: total });
      // A submission made meanwhile (another run) moves the last page: nothing to judge then.
      if (last.page.total_count !== total) continue;
      t.ensure(
        last.page.has_more === false,
        () => `${label}&page=${total}, the last page of total_count ${total}, says has_more true: has_more does not follow the filtered count`,
        first.res,
        last.res,
      );
    }
    if (judged === 0) t.skip('each filtered list is empty');
  },
  {
    key: 'filtered-has-more-after-writes',
    states: ['after writes'],
    values: ['boundary'],
    filters: ['each alone'],
    applies: (run) => {
      if (run.readOnly) return 'read-only: the run created no submission, the filtered lists are as they were';
      return run.profile.paths.submissionList && run.profile.submissions.listFilters ? true : 'not declared: the submission list path and its filter names';
    },
  },
);

check(
  'AUTH-6',
  "after the run's submissions, the submission list read by the main key and at once by the other account's at the same address, unfiltered and filtered by the workspace and the taxonomy they went to, shows no item to both",
  async (t) => {
    // Before the writes the main account may hold no submission, and a page cached by its address
    // alone, not by the account, shows nothing: now it holds the run's. (The other lists hold items
    // before the writes: the auth suite compares them.) A filter naming the main account's workspace
    // or taxonomy is another account's object to the other key: a lookup behind the filter that
    // forgets the account shows it the main account's submissions there, and only there.
    const { list, idField } = t.lists.endpoint('submissions');
    const addresses = [
      { label: list!, query: {} },
      ...writtenFilters(t).map(({ filter, id }) => ({ label: `${list}?${filter}=${id}`, query: { [filter]: id } })),
    ];
    let compared = 0;
    for (const { label, query } of addresses) {
      const mine = await listAs(t, list!, 'main', query);
      if (!mine || mine.items.length === 0) continue;
      // A refusal to the other key (404 for a workspace it cannot reach) shows it nothing.
      const theirs = await listAs(t, list!, 'other', query);
      if (!theirs) continue;
      compared++;
      const shared = sharedItem(mine.items, theirs.items, idField ?? 'id');
      if (shared !== null)
        t.fail(
          `${label}, read by the main key and right after by the other account's at the same address, shows submission ${shared} to both`,
          mine.res,
          theirs.res,
        );
      // Submissions' fields are not shown: where they carry no id, the same page, item for item.
      if (JSON.stringify(mine.items) === JSON.stringify(theirs.items))
        t.fail(
          `${label}, read by the main key and right after by the other account's at the same address, gives both the same ${mine.items.length} submission(s)`,
          mine.res,
          theirs.res,
        );
    }
    if (compared === 0)
      t.skip(
        "the main account's submission list showed no submission after the run's writes, or the other account's key got no page (PAG-1 and AUTH-6 judge why)",
      );
  },
  {
    key: 'cross-account-submissions-after-writes',
    states: ['after writes'],
    filters: ['none', 'each alone'],
    applies: (run) => {
      if (run.readOnly) return 'read-only: the run created no submission, the lists are as the auth suite compared them';
      return run.profile.paths.submissionList ? true : 'not declared: the submission list path';
    },
  },
);

/** A submission the run's main account created, as its log shows it: where it went, and the exchange. */
interface Written {
  readonly workspace: string;
  readonly taxonomy: string;
  readonly exchange: Exchange;
}

/**
 * The submissions the run created in the main account, from its log: each 201 answer to a
 * well-formed body (workspace_id and taxonomy_id strings, rows of objects with a data object) sent
 * with a key of the account, to one of its workspaces and taxonomies, and, where the workspace is
 * named in the query too, the same one there (which one a target takes otherwise, the document
 * does not say).
 */
function writtenByRun(t: CheckContext, log: readonly Exchange[]): Written[] {
  const param = t.profile.submissions.workspaceQueryParam;
  const workspaces = new Set(workspaceIds(t));
  const taxonomies = new Set(taxonomyIds(t));
  return log.flatMap((exchange) => {
    const { request, response } = exchange;
    // 201, "submission created": another 2xx (an accepted job) may yet be refused.
    if (request.method !== 'POST' || response?.status !== 201) return [];
    if (exchange.auth !== 'main' && exchange.auth !== 'created') return [];
    // The API's path, after whatever path the base URL has before /api/.
    if (apiPathOf(request.url) !== SUBMISSIONS_PATH || request.truncated || request.body === undefined) return [];
    const url = new URL(request.url);
    let body: { workspace_id?: unknown; taxonomy_id?: unknown; rows?: unknown };
    try {
      body = JSON.parse(request.body) as typeof body;
    } catch {
      return [];
    }
    const { workspace_id: workspace, taxonomy_id: taxonomy, rows } = body ?? {};
    if (typeof workspace !== 'string' || typeof taxonomy !== 'string' || !workspaces.has(workspace) || !taxonomies.has(taxonomy)) return [];
    const wellFormed =
      Array.isArray(rows) &&
      rows.length > 0 &&
      rows.every((row) => typeof row === 'object' && row !== null && !Array.isArray(row) && isObject((row as { data?: unknown }).data));
    if (!wellFormed) return [];
    if (param && url.searchParams.has(param) && url.searchParams.get(param) !== workspace) return [];
    return [{ workspace, taxonomy, exchange }];
  });
}

const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

check(
  'SUB-4',
  "after the run's writes, the submission list counts at least the submissions the run created: unfiltered, and filtered by each workspace and taxonomy it wrote to",
  async (t) => {
    const listPath = t.profile.paths.submissionList!;
    const written = writtenByRun(t, await t.log());
    if (written.length === 0) t.skip('the run created no submission it can tell the workspace and taxonomy of');
    const filters = t.profile.submissions.listFilters;
    // Submissions cannot be deleted, and others can only add: each count is at least the run's.
    const reads: { label: string; query: Record<string, string>; created: Written[] }[] = [{ label: 'unfiltered', query: {}, created: written }];
    for (const [what, filter] of [
      ['workspace', filters?.workspace],
      ['taxonomy', filters?.taxonomy],
    ] as const) {
      if (!filter) continue;
      const values = [...new Set(written.map((w) => w[what]))];
      for (const value of values) reads.push({ label: `${filter}=${value}`, query: { [filter]: value }, created: written.filter((w) => w[what] === value) });
    }
    for (const { label, query, created } of reads) {
      const { res, page } = await t.lists.fetchPage(listPath, { ...query, limit: 1 });
      t.ensure(
        page.total_count >= created.length,
        () =>
          `${listPath}${label === 'unfiltered' ? '' : `?${label}`} has total_count ${page.total_count}, but the run itself created ${created.length} submission(s) there (each answered 201; submissions cannot be deleted): the count misses what was written`,
        res,
        ...created.slice(-2).map((w) => w.exchange),
      );
    }
  },
  {
    key: 'run-writes-counted',
    states: ['after writes'],
    filters: ['none', 'each alone'],
    applies: (run) => {
      if (run.readOnly) return "read-only: the run created no submission, SUB-4's own check judges the filters";
      return run.profile.paths.submissionList ? true : 'not declared: the submission list path';
    },
  },
);
