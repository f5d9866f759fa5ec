import emptyStringMissing from '../empty-string-missing.js';
import emptyStringNotFound from '../empty-string-not-found.js';
import emptyWorkspaceParamMismatch from '../empty-workspace-param-mismatch.js';
import headOptionsRefused from '../head-options-refused.js';
import invalidJson422 from '../invalid-json-422.js';
import lastUseAsync from '../last-use-async.js';
import lastUseOmittedUntilUsed from '../last-use-omitted-until-used.js';
import newKeyDelay from '../new-key-delay.js';
import optionsServed from '../options-served.js';
import pagePastEnd422 from '../page-past-end-422.js';
import rateClockAligned from '../rate-clock-aligned.js';
import rateHigherLimit from '../rate-higher-limit.js';
import rateSlidingWindow from '../rate-sliding-window.js';
import rateTokenBucket from '../rate-token-bucket.js';
import rateWindowFromFirstRequest from '../rate-window-from-first-request.js';
import secondAccountLarger from '../second-account-larger.js';
import trailingSlashServed from '../trailing-slash-served.js';
import unknownQueryParams422 from '../unknown-query-params-422.js';
import foreignWorkspace403 from '../foreign-workspace-403.js';
import clockAhead from '../clock-ahead.js';
import clockBehind from '../clock-behind.js';

/** Variants of rate limiting, key timing, empty values, methods, paths and account data. */
export const BEHAVIOUR_VARIANTS = {
  'rate-window-from-first-request': rateWindowFromFirstRequest,
  'rate-sliding-window': rateSlidingWindow,
  'rate-token-bucket': rateTokenBucket,
  'rate-clock-aligned': rateClockAligned,
  'rate-higher-limit': rateHigherLimit,
  'clock-behind': clockBehind,
  'clock-ahead': clockAhead,
  'last-use-async': lastUseAsync,
  'last-use-omitted-until-used': lastUseOmittedUntilUsed,
  'new-key-delay': newKeyDelay,
  'empty-string-missing': emptyStringMissing,
  'empty-string-not-found': emptyStringNotFound,
  'empty-workspace-param-mismatch': emptyWorkspaceParamMismatch,
  'invalid-json-422': invalidJson422,
  'page-past-end-422': pagePastEnd422,
  'head-options-refused': headOptionsRefused,
  'options-served': optionsServed,
  'trailing-slash-served': trailingSlashServed,
  'unknown-query-params-422': unknownQueryParams422,
  'second-account-larger': secondAccountLarger,
  'foreign-workspace-403': foreignWorkspace403,
} as const;
