import { HttpClient } from '../../http/client.js';
import { preflight, type Preflight } from '../../target/preflight.js';
import type { Opened } from './open.js';

/** The target's first answers: it answers, the keys authenticate, which collections hold data. */
export interface Preflighted extends Opened {
  /** The main process's client, paced by the broker: the preflight's, the key deletion probe's, the pool's. */
  readonly http: HttpClient;
  readonly preflight: Preflight;
}

/** The preflight stage (`target/preflight.ts`): the target's first answers, its notes said. */
export async function preflightStage(input: Opened): Promise<Preflighted> {
  const { target, broker, settings, io, stops } = input;
  const { baseUrl, keys } = target;
  const profile = target.loaded.profile;
  const http = new HttpClient({
    baseUrl,
    keys,
    extraHeaders: settings.extraHeaders,
    timeoutMs: settings.timeoutMs,
    hooks: { acquire: (b, a) => broker.acquire(b, a), record: async (e, body) => void broker.record(e, body) },
    currentCheck: () => 'preflight',
  });
  io.out(`conformance: ${baseUrl}${input.embedded ? ' (embedded reference server)' : ''}, profile "${profile.name}", seed ${input.seed}`);
  const checked = await preflight(http, profile, keys.other !== null);
  stops.reached({ notes: checked.notes });
  for (const note of checked.notes) io.out(`  note: ${note}`);
  return { ...input, http, preflight: checked };
}
