// RES-7 member by member: what a list item's members hold (their value classes, to choose which
// items to retrieve), and how a retrieval differs from its list item. Plain JSON in, plain data
// out: nothing here sends a request.

/** The class of a JSON value: `null`, an empty string and a missing member are three different things. */
export type ValueClass = 'null' | 'empty string' | 'string' | 'number' | 'boolean' | 'empty object' | 'object' | 'empty array' | 'array';

export function valueClass(value: unknown): ValueClass {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'empty array' : 'array';
  switch (typeof value) {
    case 'string':
      return value === '' ? 'empty string' : 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return typeof value === 'object' && Object.keys(value as object).length === 0 ? 'empty object' : 'object';
  }
}

/** Levels of nesting looked into when telling items apart: `data.tags[]` is two. */
const CLASS_DEPTH = 3;

/**
 * Every member path of an item with the class of its value, as `description: null` or
 * `data.tags[]: string`; array elements share one path.
 */
export function memberClasses(item: unknown, path = '', depth = 0, out = new Set<string>()): Set<string> {
  if (path !== '') out.add(`${path}: ${valueClass(item)}`);
  if (depth >= CLASS_DEPTH || item === null || typeof item !== 'object') return out;
  if (Array.isArray(item)) {
    for (const element of item) memberClasses(element, `${path}[]`, depth + 1, out);
  } else {
    for (const [name, value] of Object.entries(item)) memberClasses(value, path === '' ? name : `${path}.${name}`, depth + 1, out);
  }
  return out;
}

/**
 * Up to `budget` items to retrieve: first, one after another, the item that shows the most member
 * classes no item chosen so far shows (a null description, an empty tag list, ...), so that every
 * kind of value the list holds is compared; then, for what budget is left, items spread evenly
 * over the rest, first and last included. Deterministic: ties go to the earlier item.
 */
export function chooseByValueClasses<T>(items: readonly T[], budget: number): T[] {
  if (items.length <= budget) return [...items];
  const classes = items.map((item) => memberClasses(item));
  const covered = new Set<string>();
  const chosen = new Set<number>();
  while (chosen.size < budget) {
    let best = -1;
    let gain = 0;
    for (const [index, set] of classes.entries()) {
      if (chosen.has(index)) continue;
      let fresh = 0;
      for (const c of set) if (!covered.has(c)) fresh++;
      if (fresh > gain) {
        best = index;
        gain = fresh;
      }
    }
    if (best < 0) break;
    chosen.add(best);
    for (const c of classes[best]!) covered.add(c);
  }
  const rest = items.map((_, index) => index).filter((index) => !chosen.has(index));
  const left = budget - chosen.size;
  for (let i = 0; i < left && rest.length > 0; i++) chosen.add(rest[left === 1 ? 0 : Math.round((i * (rest.length - 1)) / (left - 1))]!);
  return [...chosen].sort((a, b) => a - b).map((index) => items[index]!);
}

/** One member whose retrieved value is not its listed one; `retrieved` undefined: missing. */
export interface MemberDifference {
  readonly path: string;
  readonly listed: unknown;
  readonly retrieved: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every member of the list item whose value the retrieval does not carry, member by member and
 * at every depth: the same value of the same type (`null` is neither `""` nor a missing member).
 * The retrieval may carry members the list item does not (its payload is not shown); inside a
 * member, values must be equal (the order of an object's members aside, which JSON leaves free).
 */
export function memberDifferences(listed: unknown, retrieved: unknown): MemberDifference[] {
  if (!isObject(listed)) return [];
  if (!isObject(retrieved)) return [{ path: '(the resource)', listed, retrieved }];
  const out: MemberDifference[] = [];
  for (const [name, value] of Object.entries(listed)) compare(value, Object.hasOwn(retrieved, name) ? retrieved[name] : undefined, name, out);
  return out;
}

function compare(listed: unknown, retrieved: unknown, path: string, out: MemberDifference[]): void {
  if (isObject(listed) && isObject(retrieved)) {
    for (const name of new Set([...Object.keys(listed), ...Object.keys(retrieved)])) {
      compare(Object.hasOwn(listed, name) ? listed[name] : undefined, Object.hasOwn(retrieved, name) ? retrieved[name] : undefined, `${path}.${name}`, out);
    }
    return;
  }
  if (Array.isArray(listed) && Array.isArray(retrieved) && listed.length === retrieved.length) {
    listed.forEach((element, index) => compare(element, retrieved[index], `${path}[${index}]`, out));
    return;
  }
  if (listed === retrieved) return;
  out.push({ path, listed, retrieved });
}

/** `description is "" when retrieved but null in the list` */
export function describeDifference(d: MemberDifference): string {
  const show = (value: unknown) => (value === undefined ? 'missing' : JSON.stringify(value));
  return `${d.path} is ${show(d.retrieved)} when retrieved but ${show(d.listed)} in the list`;
}
