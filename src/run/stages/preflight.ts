import { currentClock, SIMULATED_CLOCK_VARIABLE, SIMULATED_TIME_HEADER } from '../../clock.js';
import { ConformanceError } from '../../errors.js';
import { HttpClient } from '../../http/client.js';
import { preflight, type Preflight } from '../../target/preflight.js';
import type { RunSlices } from '../slices.js';
import type { Opened } from './open.js';

/** The target's first answers: it answers, the keys authenticate, which collections hold data. */
export interface Preflighted extends Opened {
  /** The main process's client, paced by the broker: the preflight's, the key deletion probe's, the pool's. */
  readonly http: HttpClient;
  readonly preflight: Preflight;
}

/** The preflight stage (`target/preflight.ts`): the target's first answers, its notes said. */
export async function preflightStage(input: Opened, settings: RunSlices['requests']): Promise<Preflighted> {
  const { target, broker, io, stops } = input;
  const { baseUrl, keys } = target;
  const profile = target.loaded.profile;
  // Whether the target reads the run's time from its requests: only it may be checked on the simulated clock.
  let onRunsClock = false;
  const http = new HttpClient({
    baseUrl,
    keys,
    extraHeaders: settings.extraHeaders,
    timeoutMs: settings.timeoutMs,
    hooks: {
      acquire: (b, a) => broker.acquire(b, a),
      record: async (e, body) => {
        if (e.response?.headers[SIMULATED_TIME_HEADER] !== undefined) onRunsClock = true;
        broker.record(e, body);
      },
    },
    currentCheck: () => 'preflight',
  });
  io.out(`conformance: ${baseUrl}${input.embedded ? ' (embedded reference server)' : ''}, profile "${profile.name}", seed ${input.seed}`);
  const checked = await preflight(http, profile, keys.other !== null);
  if (currentClock().shared && !onRunsClock) {
    throw new ConformanceError(
      'CONF_SETTING_INVALID',
      `${SIMULATED_CLOCK_VARIABLE} is the project's own tests' setting: the target at ${baseUrl} does not read the run's time from its requests, and its rate windows would not pass when the run's waits do; unset it`,
    );
  }
  stops.reached({ notes: checked.notes });
  for (const note of checked.notes) io.out(`  note: ${note}`);
  return { ...input, http, preflight: checked };
}
