import rateAccountBucket from '../rate-account-bucket.js';
import rateAnonymousUnlimited from '../rate-anonymous-unlimited.js';
import rateBucketPerRoute from '../rate-bucket-per-route.js';
import rateIpBudgetCountsKeys from '../rate-ip-budget-counts-keys.js';
import rateRetryAfterMilliseconds from '../rate-retry-after-milliseconds.js';
import rateRemainingStaleOnPicklists from '../rate-remaining-stale-on-picklists.js';
import rateHeadersMissingOnPicklists from '../rate-headers-missing-on-picklists.js';
import rate429ParamSet from '../rate-429-param-set.js';
import rate429WrongCode from '../rate-429-wrong-code.js';
import rate429WrongType from '../rate-429-wrong-type.js';
import rateRefusalResetsCount from '../rate-refusal-resets-count.js';
import rateRemainingConstant from '../rate-remaining-constant.js';
import rateResetMilliseconds from '../rate-reset-milliseconds.js';
import rateResetRelative from '../rate-reset-relative.js';
import rateRetryAfterMissing from '../rate-retry-after-missing.js';
import rateRetryAfterOnLastRequest from '../rate-retry-after-on-last-request.js';
import rateRetryAfterRoundedDown from '../rate-retry-after-rounded-down.js';
import failedRequestsRefunded from '../failed-requests-refunded.js';

/** Mutants of the RATE family. */
export const RATE_LIMIT_MUTANTS = {
  'rate-remaining-constant': rateRemainingConstant,
  'rate-reset-milliseconds': rateResetMilliseconds,
  'rate-reset-relative': rateResetRelative,
  'rate-retry-after-missing': rateRetryAfterMissing,
  'rate-retry-after-on-last-request': rateRetryAfterOnLastRequest,
  'rate-retry-after-rounded-down': rateRetryAfterRoundedDown,
  'rate-429-wrong-code': rate429WrongCode,
  'rate-429-wrong-type': rate429WrongType,
  'rate-429-param-set': rate429ParamSet,
  'rate-anonymous-unlimited': rateAnonymousUnlimited,
  'rate-ip-budget-counts-keys': rateIpBudgetCountsKeys,
  'rate-remaining-stale-on-picklists': rateRemainingStaleOnPicklists,
  'rate-retry-after-milliseconds': rateRetryAfterMilliseconds,
  'rate-account-bucket': rateAccountBucket,
  'rate-headers-missing-on-picklists': rateHeadersMissingOnPicklists,
  'rate-refusal-resets-count': rateRefusalResetsCount,
  'rate-bucket-per-route': rateBucketPerRoute,
  'failed-requests-refunded': failedRequestsRefunded,
} as const;
