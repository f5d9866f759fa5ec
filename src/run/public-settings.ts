import type { Settings } from '../config/settings.js';

/** Settings as the report shows them: no secret, only whether one was given. */
export function publicSettings(settings: Settings): Record<string, unknown> {
  return {
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey ? 'set' : 'unset',
    otherAccountApiKey: settings.otherAccountApiKey ? 'set' : 'unset',
    profile: settings.profileFile,
    reportDir: settings.reportDir,
    extraHeaders: settings.extraHeaders.map(([name]) => `${name}: [REDACTED]`),
    only: settings.only,
    skip: settings.skip,
    strict: settings.strict,
    requireComplete: settings.requireComplete,
    readOnly: settings.readOnly,
    leaveKeys: settings.leaveKeys,
    maxSubmissions: settings.maxSubmissions,
    propertyRuns: settings.propertyRuns,
    timeoutMs: settings.timeoutMs,
    teardownTimeoutMs: settings.teardownTimeoutMs,
    certify: settings.certify,
  };
}
