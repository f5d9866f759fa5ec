/**
 * A setting, profile or target fault that stops the run before it can judge anything.
 * Always reported as one line and exit status 2 (run interface: inconclusive). Never used for a
 * non-conformance: those are findings with evidence (see `check/outcome.ts`).
 */
export const CONF_ERROR_CODES = {
  CONF_SETTING_INVALID: 'a setting is wrong',
  CONF_PROFILE_INVALID: 'the profile does not validate',
  CONF_PROFILE_UNREADABLE: 'the profile file cannot be read',
  CONF_PROFILE_INCOMPLETE: 'a certification run: the profile leaves a MUST clause unable to apply',
  CONF_TARGET_UNREACHABLE: 'the target does not answer',
  CONF_TARGET_REDIRECTED: 'the target redirects the preflight',
  CONF_TARGET_NOT_API: 'the base URL does not serve API v1 (a web page, another JSON service)',
  CONF_KEY_REJECTED: 'the API key does not authenticate',
  CONF_REPORT_INVALID: 'a report file is not usable',
  CONF_MANIFEST_INVALID: 'a report folder has no usable manifest.json',
  CONF_SIGN_KEY_INVALID: 'the signing or public key cannot be used',
  CONF_FLEET_INVALID: 'the fleet file or a deployment in it is not usable',
  CONF_SUITE_FAULT: 'the suite itself broke',
} as const;

export type ConfErrorCode = keyof typeof CONF_ERROR_CODES;

export class ConformanceError extends Error {
  override readonly name = 'ConformanceError';
  constructor(
    readonly code: ConfErrorCode,
    message: string,
  ) {
    super(message);
  }

  /** The one line a user sees. */
  toLine(): string {
    return `${this.code}: ${this.message}`;
  }
}
