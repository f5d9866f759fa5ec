import { CLAUSE_IDS, type ClauseId } from '../../src/clauses/catalogue.js';
import { RUN_WIDE_JUDGES } from '../../src/judge/run-wide.js';
import { CREDENTIAL_CARRIERS } from '../../suites/catalogues/credential-carriers.js';
import { KEY_SPELLINGS } from '../../suites/catalogues/key-spellings.js';
import { REFUSED_QUERIES } from '../../suites/catalogues/refused-queries.js';
import { REQUEST_HEADERS } from '../../suites/catalogues/request-headers.js';
import { JSON_VALUES } from '../../suites/catalogues/json-values.js';
import { PAGE_OFFSETS } from '../../suites/catalogues/page-offsets.js';
import { TRANSPORTS } from '../../suites/catalogues/transports.js';
import { KEY_COMMANDS_CATALOGUE } from '../../suites/explorer/key-model.js';
import { PAIR_DIMENSIONS, PAIR_FEEDS } from '../../suites/catalogues/pair-dimensions.js';

/** One entry of a catalogue of what varies, as docs/coverage.md lists it. */
interface Entry {
  readonly name: string;
  readonly clauses: readonly ClauseId[];
  readonly unreached: Readonly<Partial<Record<ClauseId, string>>>;
}

const CATALOGUES: readonly { readonly title: string; readonly where: string; readonly entries: readonly Entry[] }[] = [
  {
    title: 'Credentials carried elsewhere than the Authorization header',
    where: "`suites/catalogues/credential-carriers.ts`: each of AUTH-1's probes without the header carries a key of the run's own in the next one",
    entries: CREDENTIAL_CARRIERS,
  },
  {
    title: 'Keys spelled otherwise',
    where: "`suites/catalogues/key-spellings.ts`: each made from the configured key after its first use and sent by AUTH-3's probe, every run",
    entries: KEY_SPELLINGS,
  },
  {
    title: 'Queries a list refuses, carried by failed credentials',
    where:
      "`suites/catalogues/refused-queries.ts`: each carried in turn, turned by the seed, by the requests to a list of AUTH-1's probes without the header, AUTH-2's with a malformed header and AUTH-3's with a key spelled otherwise, every run, at no request more",
    entries: REFUSED_QUERIES,
  },
  {
    title: 'Request headers HTTP defines',
    where:
      "`suites/catalogues/request-headers.ts`: each sent every run to a list and to a retrieval, every list and retrieval of the run met by one, which each meets turned by the seed, and to all of them where the run has a key pool (the explorer, GEN-1); those naming another client address also without a key right after RATE-7's burst met its 429",
    entries: REQUEST_HEADERS,
  },
  {
    title: 'JSON values',
    where: '`suites/catalogues/json-values.ts`: every one sent as row data of a submission, every run (SUB-5)',
    entries: JSON_VALUES.map((v) => ({ name: v.what, clauses: v.clauses, unreached: v.unreached })),
  },
  {
    title: 'Page offsets at the integer boundaries',
    where:
      '`suites/catalogues/page-offsets.ts`: each sent to every list by its PAG-9 check, every run: a page and a limit the document allows whose product crosses the boundary',
    entries: PAGE_OFFSETS,
  },
  {
    title: 'Transports',
    where: "`suites/catalogues/transports.ts`: every entry sent every run by the explorer, on a key of the run's pool",
    entries: TRANSPORTS,
  },
  {
    title: 'Pairs of what varies (a covering array of strength 2)',
    where:
      "`suites/catalogues/pair-dimensions.ts`, `suites/pairs.suite.ts`: every pair of values of every two dimensions meets in at least one request of every run, drawn from the seed, then rows drawn beyond them with the budget `--explore` leaves; the report lists the pairs' count, the rows drawn, what was left out and why, and each request",
    entries: (Object.keys(PAIR_DIMENSIONS) as (keyof typeof PAIR_DIMENSIONS)[]).map((dimension) => ({
      name: `${dimension}: ${PAIR_DIMENSIONS[dimension].filter((v) => v !== '—').join(', ')}`,
      clauses: PAIR_FEEDS[dimension],
      unreached: {},
    })),
  },
  {
    title: 'Key lifecycle commands (actors and orders)',
    where: "`suites/explorer/key-model.ts`: fast-check's model-based testing; the cover's sequences in every run, then sequences drawn from the seed",
    entries: KEY_COMMANDS_CATALOGUE,
  },
];

/** The section of docs/coverage.md on what varies: the catalogues, and per clause what reaches it beside its checks. */
export function renderVariation(): string[] {
  const entryRows = CATALOGUES.flatMap((catalogue) => [
    `### ${catalogue.title}`,
    '',
    catalogue.where + '.',
    '',
    '| entry | feeds | cannot reach |',
    '|---|---|---|',
    ...catalogue.entries.map((e) => {
      const unreached = Object.entries(e.unreached).map(([id, why]) => `${id}: ${why}`);
      return `| ${e.name} | ${e.clauses.join(', ')} | ${unreached.join('<br>') || '-'} |`;
    }),
    '',
  ]);
  const invariant = new Set(Object.keys(RUN_WIDE_JUDGES));
  const clauseRows = CLAUSE_IDS.flatMap((id) => {
    const fed = CATALOGUES.flatMap((c) => c.entries.filter((e) => e.clauses.includes(id)).map((e) => e.name));
    if (!invariant.has(id) && fed.length === 0) return [];
    return [`| ${id} | ${invariant.has(id) ? 'every exchange of the run' : '-'} | ${fed.join('<br>') || '-'} |`];
  });
  return [
    '## What varies: invariants and the explorer',
    '',
    'Beside the checks above, clauses judged as invariants over every exchange of the run (the run-wide',
    'judges), and the catalogues of what varies that the explorer and the probes visit in every run, whatever',
    'the seed: each entry names the clauses its answers feed, and a reason for each it cannot reach.',
    '',
    '| clause | invariant over | catalogue entries that feed it |',
    '|---|---|---|',
    ...clauseRows,
    '',
    ...entryRows,
  ];
}
