import type { Faker, LocaleDefinition } from '@faker-js/faker';
// The English locale alone: the package's main entry loads every locale, some 150 ms of each start
// of a reference (every embedded run, every test process that starts one).
import { faker as english } from '@faker-js/faker/locale/en';

/** A generator of its own, seeded by its account, over the English definitions (with faker's base ones behind them). */
const EnglishFaker = english.constructor as new (options: { locale: LocaleDefinition[] }) => Faker;

/**
 * Deterministic seed data: the same seed gives the same accounts byte for byte. Records are not
 * stored but computed from their index, so a million of them cost no memory and a 10000-item
 * page is a loop over small pools drawn once from faker.
 */
export interface Workspace {
  id: string;
  name: string;
  description: string;
}
export interface GovernanceModel {
  id: string;
  name: string;
  description: string | null;
}
export interface RecordItem {
  id: string;
  status: string;
  service_id: string;
  data: Record<string, unknown>;
}
export interface Taxonomy {
  id: string;
  name: string;
  field_ids: string[];
}
export interface Field {
  id: string;
  taxonomy_id: string;
  name: string;
  type: string;
  picklist_id: string | null;
}
export interface Picklist {
  id: string;
  name: string;
  values: string[];
}

export interface SeedData {
  workspaces: Workspace[];
  governanceModels: GovernanceModel[];
  taxonomies: Taxonomy[];
  fields: Field[];
  picklists: Picklist[];
  records: RecordSource;
}

export const RECORD_STATUSES = ['draft', 'submitted', 'approved', 'rejected', 'archived'] as const;

/** Records of one account, computed on demand. */
export class RecordSource {
  readonly #tag: string;
  readonly #pools: { titles: string[]; cities: string[]; people: string[]; amounts: number[]; dates: string[] };
  constructor(
    readonly count: number,
    tag: string,
    faker: Faker,
  ) {
    this.#tag = tag;
    const pool = <T>(make: () => T) => Array.from({ length: 97 }, make);
    this.#pools = {
      titles: pool(() => faker.commerce.productName()),
      cities: pool(() => faker.location.city()),
      people: pool(() => faker.person.fullName()),
      amounts: pool(() => faker.number.float({ min: 1, max: 100_000, fractionDigits: 2 })),
      dates: pool(() => faker.date.past({ years: 3, refDate: '2026-01-01T00:00:00Z' }).toISOString()),
    };
  }

  idAt(index: number): string {
    return `rec_${this.#tag}${index.toString(36).padStart(5, '0')}`;
  }

  indexOf(id: string): number | null {
    const prefix = `rec_${this.#tag}`;
    if (!id.startsWith(prefix)) return null;
    const rest = id.slice(prefix.length);
    if (!/^[0-9a-z]{5,}$/.test(rest)) return null;
    const index = parseInt(rest, 36);
    return index < this.count && this.idAt(index) === id ? index : null;
  }

  at(index: number): RecordItem {
    const p = this.#pools;
    return {
      id: this.idAt(index),
      status: RECORD_STATUSES[index % RECORD_STATUSES.length]!,
      service_id: `S-${(index + 1).toString().padStart(6, '0')}`,
      data: {
        title: p.titles[index % 97],
        city: p.cities[(index * 7) % 97],
        owner: p.people[(index * 13) % 97],
        amount: p.amounts[(index * 31) % 97],
        recorded_at: p.dates[(index * 17) % 97],
        tags: index % 3 === 0 ? [] : ['seed', `batch-${index % 11}`],
      },
    };
  }

  slice(start: number, end: number): RecordItem[] {
    const out: RecordItem[] = [];
    for (let i = start; i < Math.min(end, this.count); i++) out.push(this.at(i));
    return out;
  }

  /**
   * `JSON.stringify(this.slice(start, end))` without building the objects: the pools are
   * serialised once, so a 10000-record page is string concatenation (a few ms, not ~100).
   */
  sliceJson(start: number, end: number): string {
    const json = (this.#json ??= {
      titles: this.#pools.titles.map((v) => JSON.stringify(v)),
      cities: this.#pools.cities.map((v) => JSON.stringify(v)),
      people: this.#pools.people.map((v) => JSON.stringify(v)),
      amounts: this.#pools.amounts.map((v) => JSON.stringify(v)),
      dates: this.#pools.dates.map((v) => JSON.stringify(v)),
      statuses: RECORD_STATUSES.map((v) => JSON.stringify(v)),
    });
    const parts: string[] = [];
    for (let i = start; i < Math.min(end, this.count); i++) {
      const tags = i % 3 === 0 ? '[]' : `["seed","batch-${i % 11}"]`;
      parts.push(
        `{"id":"${this.idAt(i)}","status":${json.statuses[i % RECORD_STATUSES.length]},"service_id":"S-${(i + 1).toString().padStart(6, '0')}",` +
          `"data":{"title":${json.titles[i % 97]},"city":${json.cities[(i * 7) % 97]},"owner":${json.people[(i * 13) % 97]},` +
          `"amount":${json.amounts[(i * 31) % 97]},"recorded_at":${json.dates[(i * 17) % 97]},"tags":${tags}}}`,
      );
    }
    return `[${parts.join(',')}]`;
  }

  #json: Record<'titles' | 'cities' | 'people' | 'amounts' | 'dates' | 'statuses', string[]> | undefined;
}

/** Builds one account's data. `tag` keeps ids of different accounts disjoint. */
export function seedAccount(seed: number, tag: string, recordCount: number): SeedData {
  const faker = new EnglishFaker({ locale: [english.rawDefinitions] });
  faker.seed(seed);
  const id = (prefix: string, n: number) => `${prefix}_${tag}${faker.string.alphanumeric({ length: 10, casing: 'lower' })}${n}`;
  const workspaces: Workspace[] = [
    // First sign-up creates a workspace named Main (API document, Web app sign-in).
    { id: id('ws', 0), name: 'Main', description: 'Created at sign-up' },
    ...Array.from({ length: 3 }, (_, n) => ({ id: id('ws', n + 1), name: faker.company.name(), description: faker.company.catchPhrase() })),
  ];
  const governanceModels: GovernanceModel[] = Array.from({ length: 5 }, (_, n) => ({
    id: id('gm', n),
    name: `${faker.word.adjective()} ${faker.word.noun()} model`,
    description: n % 2 === 0 ? faker.lorem.sentence() : null,
  }));
  const picklists: Picklist[] = Array.from({ length: 4 }, (_, n) => ({
    id: id('pl', n),
    name: faker.word.noun(),
    values: Array.from({ length: 3 + n }, () => faker.word.sample()),
  }));
  const taxonomies: Taxonomy[] = [];
  const fields: Field[] = [];
  for (let t = 0; t < 3; t++) {
    const taxonomy: Taxonomy = { id: id('tx', t), name: `${faker.commerce.department()} taxonomy`, field_ids: [] };
    for (let f = 0; f < 4; f++) {
      const field: Field = {
        id: id('fd', t * 4 + f),
        taxonomy_id: taxonomy.id,
        name: faker.database.column(),
        type: ['string', 'number', 'date', 'picklist'][f]!,
        picklist_id: f === 3 ? picklists[t % picklists.length]!.id : null,
      };
      fields.push(field);
      taxonomy.field_ids.push(field.id);
    }
    taxonomies.push(taxonomy);
  }
  return { workspaces, governanceModels, taxonomies, fields, picklists, records: new RecordSource(recordCount, tag, faker) };
}
