import { parseArgs } from 'node:util';
import { ConformanceError } from '../src/errors.js';
import { loadProfile } from '../src/profile/profile.js';
import { REFERENCE_PROFILE_FILE, REFERENCE_RECORDS, startReference } from './server.js';

/**
 * `npm run reference`: the reference server on its own, for pointing a run (or curl) at it.
 * Prints its URL and the keys of both accounts: these are local, throw-away test keys.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      window: { type: 'string' },
      records: { type: 'string', default: String(REFERENCE_RECORDS) },
      profile: { type: 'string', default: REFERENCE_PROFILE_FILE },
    },
  });
  const number = (name: string, raw: string | undefined, min: number): number | undefined => {
    if (raw === undefined) return undefined;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min) throw new ConformanceError('CONF_SETTING_INVALID', `--${name} must be an integer >= ${min}, got "${raw}"`);
    return value;
  };
  const reference = await startReference({
    profile: loadProfile(values.profile!).profile,
    port: number('port', values.port, 0),
    host: values.host,
    windowSeconds: number('window', values.window, 1),
    records: number('records', values.records, 0),
  });
  process.stdout.write(
    [
      `reference server listening on ${reference.url} (window ${reference.profile.limits.windowSeconds} s)`,
      `  CONFORMANCE_BASE_URL=${reference.url}`,
      `  CONFORMANCE_API_KEY=${reference.keys.main}`,
      `  CONFORMANCE_OTHER_ACCOUNT_API_KEY=${reference.keys.other}`,
      `  CONFORMANCE_PROFILE=${values.profile}`,
      '',
    ].join('\n'),
  );
  const stop = () => void reference.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConformanceError ? error.toLine() : `reference: ${(error as Error).message}`}\n`);
  process.exit(2);
});
