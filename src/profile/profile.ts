import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConformanceError } from '../errors.js';
import { schemaErrors } from '../schemas.js';

export const PATH_NAMES = [
  'workspace',
  'governanceModel',
  'record',
  'taxonomies',
  'taxonomy',
  'fields',
  'field',
  'picklists',
  'picklist',
  'apiKeyList',
  'apiKey',
  'submissionList',
] as const;
export type PathName = (typeof PATH_NAMES)[number];

export interface Profile {
  readonly name: string;
  readonly keyPrefix: string | null;
  readonly limits: { readonly perKeyPerMinute: number; readonly unauthenticatedPerMinute: number; readonly windowSeconds: number };
  readonly paths: Readonly<Record<PathName, string | null>>;
  readonly apiKeyFields: { readonly id: string | null; readonly secret: string | null; readonly name: string | null; readonly lastUsedAt: string | null };
  readonly submissions: {
    readonly workspaceQueryParam: string | null;
    readonly workspaceQueryParamRequired: boolean | null;
    readonly requiredBodyFields: readonly ('workspace_id' | 'taxonomy_id' | 'rows')[] | null;
    readonly listFilters: { readonly workspace: string | null; readonly taxonomy: string | null } | null;
    /** The workspace every submission of a run goes to; null: the first of the workspaces list. */
    readonly workspaceId: string | null;
    readonly taxonomyId: string | null;
    readonly sampleRow: Readonly<Record<string, unknown>> | null;
    readonly acceptsAnyData: boolean | null;
  };
  readonly forbiddenProbe: { readonly method: string; readonly path: string } | null;
}

/** The document's own figures (Limits), used where a profile leaves limits out. */
export const DOCUMENT_LIMITS = { perKeyPerMinute: 100, unauthenticatedPerMinute: 20, windowSeconds: 60 } as const;

interface RawProfile {
  name: string;
  keyPrefix?: string | null;
  limits?: Partial<Profile['limits']>;
  paths?: Partial<Record<PathName, string | null>>;
  apiKeyFields?: Partial<Profile['apiKeyFields']> | null;
  submissions?: Partial<Profile['submissions']>;
  forbiddenProbe?: Profile['forbiddenProbe'];
}

/** Validates a parsed profile against schemas/profile.schema.json and fills undeclared facts with null. */
export function parseProfile(data: unknown, source = 'profile'): Profile {
  const problems = schemaErrors('profile', data);
  if (problems.length > 0) {
    throw new ConformanceError('CONF_PROFILE_INVALID', `${source}: ${problems.join('; ')}`);
  }
  const raw = data as RawProfile;
  const paths = Object.fromEntries(PATH_NAMES.map((name) => [name, raw.paths?.[name] ?? null])) as Record<PathName, string | null>;
  const sub = raw.submissions ?? {};
  return {
    name: raw.name,
    keyPrefix: raw.keyPrefix ?? null,
    limits: { ...DOCUMENT_LIMITS, ...raw.limits },
    paths,
    apiKeyFields: {
      id: raw.apiKeyFields?.id ?? null,
      secret: raw.apiKeyFields?.secret ?? null,
      name: raw.apiKeyFields?.name ?? null,
      lastUsedAt: raw.apiKeyFields?.lastUsedAt ?? null,
    },
    submissions: {
      workspaceQueryParam: sub.workspaceQueryParam ?? null,
      workspaceQueryParamRequired: sub.workspaceQueryParamRequired ?? null,
      requiredBodyFields: sub.requiredBodyFields ?? null,
      listFilters: sub.listFilters ? { workspace: sub.listFilters.workspace ?? null, taxonomy: sub.listFilters.taxonomy ?? null } : null,
      workspaceId: sub.workspaceId ?? null,
      taxonomyId: sub.taxonomyId ?? null,
      sampleRow: sub.sampleRow ?? null,
      acceptsAnyData: sub.acceptsAnyData ?? null,
    },
    forbiddenProbe: raw.forbiddenProbe ?? null,
  };
}

export interface LoadedProfile {
  readonly profile: Profile;
  /** The file's text, as the report embeds it. */
  readonly text: string;
  readonly sha256: string;
  readonly source: string;
}

export function loadProfile(file: string): LoadedProfile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConformanceError('CONF_PROFILE_UNREADABLE', `cannot read profile ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ConformanceError('CONF_PROFILE_INVALID', `${file} is not JSON: ${(error as Error).message}`);
  }
  return fromText(parseProfile(data, file), text, file);
}

export function profileFromObject(data: unknown, source: string): LoadedProfile {
  const text = JSON.stringify(data, null, 2);
  return fromText(parseProfile(data, source), text, source);
}

function fromText(profile: Profile, text: string, source: string): LoadedProfile {
  return { profile, text, sha256: createHash('sha256').update(text).digest('hex'), source };
}

/** Replaces `{id}` in a profile path. */
export function fillPath(template: string, id: string): string {
  return template.replace('{id}', encodeURIComponent(id));
}
