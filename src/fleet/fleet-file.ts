import { readJsonFile } from '../files/json-file.js';
import { dirname, resolve } from 'node:path';
import { readSettings } from '../config/settings.js';
import { ConformanceError } from '../errors.js';
import { loadProfile } from '../profile/profile.js';
import { schemaErrors } from '../schemas.js';

/** A fleet file as written (schemas/fleet.schema.json). */
export interface FleetFile {
  readonly name?: string;
  readonly concurrency?: number;
  readonly deployments: readonly {
    readonly name: string;
    readonly baseUrl?: string;
    readonly profile?: string;
    readonly apiKeyEnv?: string;
    readonly otherAccountApiKeyEnv?: string;
    readonly extraHeadersEnv?: string;
  }[];
}

/** One deployment, ready to run: its secrets read from the environment, its profile path resolved. */
export interface Deployment {
  readonly name: string;
  /** null: the embedded reference server. */
  readonly baseUrl: string | null;
  readonly profileFile: string | null;
  /** What the run's environment gets: CONFORMANCE_API_KEY and the like. Never written anywhere. */
  readonly secrets: Readonly<Record<string, string>>;
}

export interface Fleet {
  readonly name: string;
  readonly concurrency: number;
  readonly deployments: readonly Deployment[];
}

/** Runs at once when the fleet file does not say. */
export const DEFAULT_CONCURRENCY = 4;

/**
 * Reads and checks a fleet file before anything runs: the schema, unique names, each base URL,
 * each profile, and each named environment variable set. The first problem is one line
 * naming the deployment (CONF_FLEET_INVALID, exit 2).
 */
export function readFleetFile(file: string, env: NodeJS.ProcessEnv = process.env): Fleet {
  const data = readJsonFile(
    file,
    ({ errno, message }) =>
      new ConformanceError('CONF_FLEET_INVALID', `fleet file "${file}" ${errno ? `cannot be read: ${errno}` : `is not JSON: ${message}`}`),
  );
  const problems = schemaErrors('fleet', data);
  if (problems.length > 0) throw new ConformanceError('CONF_FLEET_INVALID', `fleet file "${file}": ${problems.slice(0, 3).join('; ')}`);
  const fleet = data as FleetFile;
  const seen = new Set<string>();
  const deployments = fleet.deployments.map((entry, i): Deployment => {
    const where = `fleet file "${file}", deployments[${i}] "${entry.name}"`;
    // Report folders are named after deployments, and file systems may ignore case.
    if (seen.has(entry.name.toLowerCase())) throw new ConformanceError('CONF_FLEET_INVALID', `${where}: the name is taken by another deployment`);
    seen.add(entry.name.toLowerCase());
    const secrets: Record<string, string> = {};
    const take = (variable: string | undefined, as: string) => {
      if (variable === undefined) return;
      const value = env[variable]?.trim();
      if (!value) throw new ConformanceError('CONF_FLEET_INVALID', `${where}: ${variable} is not set in the environment`);
      secrets[as] = value;
    };
    take(entry.apiKeyEnv, 'CONFORMANCE_API_KEY');
    take(entry.otherAccountApiKeyEnv, 'CONFORMANCE_OTHER_ACCOUNT_API_KEY');
    take(entry.extraHeadersEnv, 'CONFORMANCE_EXTRA_HEADERS');
    const profileFile = entry.profile ? resolve(dirname(file), entry.profile) : null;
    try {
      // The run's own checks, made now so that a bad entry stops the fleet before anything runs.
      readSettings([...(entry.baseUrl ? ['--base-url', entry.baseUrl] : [])], secrets, dirname(file));
      if (profileFile) loadProfile(profileFile);
    } catch (error) {
      if (error instanceof ConformanceError) throw new ConformanceError('CONF_FLEET_INVALID', `${where}: ${error.message}`);
      throw error;
    }
    return { name: entry.name, baseUrl: entry.baseUrl?.replace(/\/+$/, '') ?? null, profileFile, secrets };
  });
  return { name: fleet.name ?? 'fleet', concurrency: fleet.concurrency ?? DEFAULT_CONCURRENCY, deployments };
}
