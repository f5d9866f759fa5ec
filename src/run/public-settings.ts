import { basename } from 'node:path';
import type { Settings } from '../config/settings.js';

/** Settings as the report shows them: no secret, only whether one was given. */
export function publicSettings(settings: Settings): Record<string, unknown> {
  return {
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey ? 'set' : 'unset',
    otherAccountApiKey: settings.otherAccountApiKey ? 'set' : 'unset',
    // File names only: where they sit on the vendor's machine is no part of the report.
    profile: settings.profileFile === null ? null : basename(settings.profileFile),
    reportDir: basename(settings.reportDir),
    signKey: settings.signKey === null ? null : 'file' in settings.signKey ? basename(settings.signKey.file) : settings.signKey.from,
    extraHeaders: settings.extraHeaders.map(([name]) => `${name}: [REDACTED]`),
    only: settings.only,
    skip: settings.skip,
    strict: settings.strict,
    requireComplete: settings.requireComplete,
    readOnly: settings.readOnly,
    leaveKeys: settings.leaveKeys,
    maxSubmissions: settings.maxSubmissions,
    propertyRuns: settings.propertyRuns,
    explore: settings.explore,
    timeoutMs: settings.timeoutMs,
    teardownTimeoutMs: settings.teardownTimeoutMs,
    certify: settings.certify,
  };
}
