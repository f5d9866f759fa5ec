import { whileWaiting } from '../../clock.js';
import { sleep as realSleep } from '../../sleep.js';
import type { Layer } from '../layer.js';
import { retryDelayMs } from '../retry.js';

const UNPLANNED_429_RETRIES = 4;

/**
 * An unplanned 429 is the environment (another client on the key), not a finding: wait what the
 * target says, then back off exponentially (API document, Limits), and send again. A 429 the
 * check means to provoke (`expect429`) is answered as it is.
 */
export function retryUnplanned429(options: { retries?: number; sleep?: (ms: number) => Promise<void> } = {}): Layer {
  const retries = options.retries ?? UNPLANNED_429_RETRIES;
  const sleep = options.sleep ?? realSleep;
  return (next) => async (request) => {
    let attempt = request;
    for (let n = 0; ; n++) {
      const response = await next(attempt);
      if (response.status !== 429 || request.spec.expect429 || n >= retries) return response;
      await whileWaiting(() => sleep(retryDelayMs(response.headers['retry-after'], n)));
      attempt = { ...request, retryCause: '429', ...(response.exchange.seq !== undefined ? { retryOf: response.exchange.seq } : {}) };
    }
  };
}
