import type { Profile } from '../profile/profile.js';
import type { SchemaName } from '../schemas.js';

/** Every list endpoint the document and a profile can offer. */
export const COLLECTION_NAMES = ['workspaces', 'governanceModels', 'records', 'taxonomies', 'fields', 'picklists', 'submissions', 'apiKeys'] as const;
export type CollectionName = (typeof COLLECTION_NAMES)[number];

export interface CollectionEndpoint {
  readonly name: CollectionName;
  /** List path; null when the profile does not offer it. */
  readonly list: string | null;
  /** Single retrieval path with `{id}`; null when not offered. */
  readonly item: string | null;
  /** Schema of an item, where the document fixes one. */
  readonly schema: SchemaName | null;
  /** Member holding an item's id. */
  readonly idField: string | null;
}

/** The list endpoints of a profile: the document's three, and those the profile declares. */
export function collections(profile: Profile): Record<CollectionName, CollectionEndpoint> {
  const p = profile.paths;
  const make = (
    name: CollectionName,
    list: string | null,
    item: string | null,
    schema: SchemaName | null,
    idField: string | null = 'id',
  ): CollectionEndpoint => ({
    name,
    list,
    item,
    schema,
    idField,
  });
  return {
    workspaces: make('workspaces', '/api/v1/workspaces', p.workspace, 'workspace'),
    governanceModels: make('governanceModels', '/api/v1/governance_models', p.governanceModel, 'governance-model'),
    records: make('records', '/api/v1/records', p.record, 'record'),
    taxonomies: make('taxonomies', p.taxonomies, p.taxonomy, null),
    fields: make('fields', p.fields, p.field, null),
    picklists: make('picklists', p.picklists, p.picklist, null),
    submissions: make('submissions', p.submissionList, null, null),
    apiKeys: make('apiKeys', p.apiKeyList, null, null, profile.apiKeyFields.id),
  };
}
