import type { CheckContext } from '../../src/check/context.js';
import type { HttpResponse } from '../../src/http/client.js';
import { fillPath } from '../../src/profile/profile.js';

/** A key the run created. Its secret is registered with the broker the moment it is seen. */
export interface CreatedKey {
  readonly name: string;
  /** The key's id where the profile names the id member; null otherwise. */
  readonly id: string | null;
  readonly secret: string;
  readonly response: HttpResponse;
}

/** A recognisable name, so that a deployment owner (and `cleanup`) can tell run keys apart. */
export function keyName(t: CheckContext, purpose: string): string {
  return `conformance-${t.run.runId}-${purpose}`;
}

/**
 * Creates a key (POST /api/v1/api_keys, where the document puts creation), records it in the
 * ledger and registers its secret for redaction and the KEY-4 leak scan. A response without a
 * recognisable secret is a finding (KEY-1).
 */
export async function createKey(t: CheckContext, purpose: string): Promise<CreatedKey> {
  const name = keyName(t, purpose);
  const res = await t.http.post('/api/v1/api_keys', { name });
  t.ensure(res.status >= 200 && res.status < 300, () => `creating a key answered ${res.status}`, res);
  const body = t.json(res) as Record<string, unknown>;
  const secret = findSecret(t, body);
  if (secret) await t.revealSecret(secret);
  const idField = t.profile.apiKeyFields.id;
  const id = idField && typeof body?.[idField] === 'string' ? (body[idField] as string) : null;
  await t.runtime.broker.ledger({ event: 'created', kind: 'api_key', id: id ?? '(unknown id)', name, runId: t.run.runId, baseUrl: t.run.baseUrl, at: new Date().toISOString() });
  t.ensure(secret !== null, 'the creation response contains no key', res);
  return { name, id, secret: secret!, response: res };
}

/** Deletes a created key through the profile's key path; records the deletion on success. */
export async function deleteKey(t: CheckContext, key: CreatedKey): Promise<HttpResponse> {
  const template = t.profile.paths.apiKey;
  if (!template || !key.id) t.notApplicable('the profile declares no key path or key id member: created keys cannot be deleted');
  const res = await t.http.delete(fillPath(template!, key.id!));
  if (res.status >= 200 && res.status < 300) {
    await t.runtime.broker.ledger({ event: 'deleted', kind: 'api_key', id: key.id!, name: key.name, runId: t.run.runId, baseUrl: t.run.baseUrl, at: new Date().toISOString() });
  }
  return res;
}

/**
 * The complete key in a creation response: the profile's secret member when declared, else the
 * one string that starts with the key prefix, else the longest string value.
 */
function findSecret(t: CheckContext, body: Record<string, unknown> | null): string | null {
  if (!body || typeof body !== 'object') return null;
  const member = t.profile.apiKeyFields.secret;
  if (member) return typeof body[member] === 'string' ? (body[member] as string) : null;
  const strings = Object.values(body).filter((v): v is string => typeof v === 'string');
  const prefix = t.profile.keyPrefix;
  const prefixed = prefix ? strings.filter((s) => s.startsWith(prefix)) : [];
  if (prefixed.length > 0) return prefixed[0]!;
  return strings.sort((a, b) => b.length - a.length)[0] ?? null;
}
