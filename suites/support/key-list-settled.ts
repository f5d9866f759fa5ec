import { createdAt, deletedKeys, KEY_CREATION_PATH, type CheckContext, type Exchange, type KeyListPage } from '../../src/kit.js';

/**
 * Waits, where the key list does not yet show the keys the run created and deleted before its
 * walk, until it does: for up to the 10 s KEY-1 gives a key change (`t.keys.listUntil`). The keys
 * stage created the pool's keys moments before (and the deletion probe a key it deleted), and a
 * list served from an index or a replica shows them a moment late (DynamoDB's secondary indexes;
 * variant `key-list-index-lag`): walked before it does, the list would change under the walk, and
 * PAG-2 would compare two readings of two collections. The keys are matched by name and id, so that
 * another client's keys never hold the walk back; a list that never agrees is walked all the same.
 */
export async function keyListSettled(t: CheckContext): Promise<void> {
  const { name: nameField, id: idField } = t.profile.apiKeyFields;
  const { live, deleted } = keysOfRun(await t.log(), t.run.keyDeletion.path ?? t.profile.paths.apiKey ?? null, t.run.keyDeletion.idMember ?? idField ?? null);
  if (live.length + deleted.length === 0) return;
  const items = (pages: readonly KeyListPage[]) => pages.flatMap((page) => page.items);
  const shown = (pages: readonly KeyListPage[], member: string | undefined, value: string) => items(pages).some((item) => item?.[member!] === value);
  const settled = (pages: readonly KeyListPage[]) =>
    (!nameField || live.every((key) => shown(pages, nameField, key.name))) && (!idField || deleted.every((id) => !shown(pages, idField, id)));
  // A wait, not a judgement: a list that cannot be read is the checks' to judge, as they read it.
  await t.attempt(() => t.keys.listUntil(settled));
}

/** The keys the run's log shows it created (by name; those it did not delete) and deleted (by id). */
export function keysOfRun(log: readonly Exchange[], keyPath: string | null, idMember: string | null): { live: { name: string }[]; deleted: string[] } {
  const deleted = keyPath ? deletedKeys(log, keyPath) : new Map<string, number>();
  const live: { name: string }[] = [];
  for (const e of log) {
    // The other account's keys are not in this list.
    if (e.auth === 'other' || !createdAt(e, KEY_CREATION_PATH)) continue;
    const name = memberOf(e.request.body, 'name');
    const id = idMember ? memberOf(e.response?.body, idMember) : null;
    if (typeof name === 'string' && !(typeof id === 'string' && deleted.has(id))) live.push({ name });
  }
  return { live, deleted: [...deleted.keys()] };
}

function memberOf(text: string | undefined, member: string): unknown {
  try {
    const value = JSON.parse(text ?? '') as Record<string, unknown> | null;
    return value !== null && typeof value === 'object' ? value[member] : undefined;
  } catch {
    return undefined;
  }
}
