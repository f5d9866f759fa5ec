import type { Settings } from '../config/settings.js';
import { loadProfile, profileFromObject, type LoadedProfile } from '../profile/profile.js';
import { DOCUMENT_PROFILE_FILE, REFERENCE_PROFILE_FILE } from '../profile/shipped.js';
import type { EmbeddedServer, RunParts } from './parts.js';

/** The embedded reference runs a short window so that a local run takes seconds, not minutes. */
export const EMBEDDED_WINDOW_SECONDS = 1;

/** What a run checks: a base URL, its keys and its profile, and the embedded server if it is one. */
export interface Target {
  readonly baseUrl: string;
  readonly keys: { readonly main: string; readonly other: string | null };
  readonly loaded: LoadedProfile;
  /** The embedded reference, to be closed after the run; null for a configured base URL. */
  readonly reference: EmbeddedServer | null;
  /** Said in the report about the target, when there is something to say. */
  readonly note?: string;
}

/**
 * The target's profile, read before anything starts (a profile that cannot be read is a setting
 * error): the one given, else the shipped reference profile for the embedded reference server (no
 * base URL set), the document-only profile for any other target.
 */
export function targetProfile(settings: Pick<Settings, 'profileFile' | 'baseUrl'>): LoadedProfile {
  return loadProfile(settings.profileFile ?? (settings.baseUrl === null ? REFERENCE_PROFILE_FILE : DOCUMENT_PROFILE_FILE));
}

/** The configured target, or the embedded reference server when no base URL is set, with its profile (`targetProfile`). */
export async function openTarget(
  settings: Pick<Settings, 'baseUrl' | 'apiKey' | 'otherAccountApiKey'>,
  loaded: LoadedProfile,
  startEmbedded: RunParts['startEmbeddedTarget'],
): Promise<Target> {
  const embedded = settings.baseUrl === null;
  if (!embedded) {
    return { baseUrl: settings.baseUrl!, keys: { main: settings.apiKey!, other: settings.otherAccountApiKey }, loaded, reference: null };
  }
  const reference = await startEmbedded({ profile: loaded.profile, windowSeconds: EMBEDDED_WINDOW_SECONDS });
  return {
    baseUrl: reference.url,
    keys: reference.keys,
    loaded: embeddedProfile(loaded, reference),
    reference,
    note: `embedded reference server, rate-limit window of ${EMBEDDED_WINDOW_SECONDS} s instead of the document's minute`,
  };
}

function embeddedProfile(loaded: LoadedProfile, reference: EmbeddedServer): LoadedProfile {
  const content = { ...(JSON.parse(loaded.text) as Record<string, unknown>), limits: reference.profile.limits };
  return profileFromObject(content, `${loaded.source} (window ${reference.profile.limits.windowSeconds} s for the embedded run)`);
}
