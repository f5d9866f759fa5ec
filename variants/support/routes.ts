import type { ReferenceApp } from '../../reference/server.js';

/** One route the reference serves: its path as a pattern, and its method. */
export interface KnownRoute {
  readonly pattern: RegExp;
  readonly template: string;
  readonly method: 'GET' | 'POST' | 'DELETE';
}

/** A path template of the profile (`/api/v1/workspaces/{id}`) as a pattern that matches its concrete paths. */
export const patternOf = (template: string) => new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{id\}/g, '[^/]+')}$`);

/**
 * The routes the reference registers for its profile (reference/routes/*.ts), for a variant that
 * must know which methods a concrete path has: the document's lists and creations, and the
 * profile's paths.
 */
export function knownRoutes(reference: ReferenceApp): KnownRoute[] {
  const { paths, forbiddenProbe } = reference.state.profile;
  const out: { template: string | null; method: KnownRoute['method'] }[] = [
    { template: '/api/v1/workspaces', method: 'GET' },
    { template: '/api/v1/governance_models', method: 'GET' },
    { template: '/api/v1/records', method: 'GET' },
    { template: paths.workspace, method: 'GET' },
    { template: paths.governanceModel, method: 'GET' },
    { template: paths.record, method: 'GET' },
    { template: paths.taxonomies, method: 'GET' },
    { template: paths.taxonomy, method: 'GET' },
    { template: paths.fields, method: 'GET' },
    { template: paths.field, method: 'GET' },
    { template: paths.picklists, method: 'GET' },
    { template: paths.picklist, method: 'GET' },
    { template: '/api/v1/api_keys', method: 'POST' },
    { template: paths.apiKeyList, method: 'GET' },
    { template: paths.apiKey, method: 'DELETE' },
    { template: '/api/v1/submissions', method: 'POST' },
    { template: paths.submissionList, method: 'GET' },
    { template: forbiddenProbe?.path ?? null, method: (forbiddenProbe?.method ?? 'GET') as KnownRoute['method'] },
  ];
  return out.filter((r): r is { template: string; method: KnownRoute['method'] } => r.template !== null).map((r) => ({ ...r, pattern: patternOf(r.template) }));
}

/** The methods the reference serves on a concrete path (empty for a path it does not have). */
export function methodsOn(routes: readonly KnownRoute[], path: string): string[] {
  return [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
}
