import type { Profile } from './profile.js';

/**
 * The words of a profile fact a finding rests on, `profile fact submissions.listFilters.workspace
 * = workspace_id`: a failure that a wrong fact would explain as well as a fault of the target names
 * the fact, so that the reader checks the declaration before blaming the API. `path` is the fact's
 * place in the profile, dotted as profile.md writes it.
 */
export function profileFact(profile: Profile, path: string): string {
  const value = path
    .split('.')
    .reduce<unknown>((at, name) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[name] : undefined), profile);
  const shown = typeof value === 'string' ? value : value === undefined ? 'null' : JSON.stringify(value);
  return `profile fact ${path} = ${shown}`;
}
