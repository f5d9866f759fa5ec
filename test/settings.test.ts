import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readSettings } from '../src/config/settings.js';
import { ConformanceError } from '../src/errors.js';

const scratch = () => mkdtempSync(join(tmpdir(), 'settings-'));

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof ConformanceError ? error.code : 'not a ConformanceError';
  }
}

describe('settings', () => {
  test('with nothing set, the embedded reference is the target and reports go to reports/', () => {
    const cwd = scratch();
    const settings = readSettings([], {}, cwd);
    expect(settings.baseUrl).toBeNull();
    expect(settings.reportDir).toBe(join(cwd, 'reports'));
    expect(settings.strict).toBe(false);
  });

  test('a base URL without an API key is a setting error', () => {
    expect(codeOf(() => readSettings(['--base-url', 'https://api.example.test'], {}, scratch()))).toBe('CONF_SETTING_INVALID');
  });

  test('reads the environment, and .env without overriding the environment', () => {
    const cwd = scratch();
    writeFileSync(join(cwd, '.env'), 'CONFORMANCE_BASE_URL=https://from-dotenv.test\nCONFORMANCE_API_KEY=sk_dotenv_key\nCONFORMANCE_REPORT_DIR=out\n');
    const settings = readSettings([], { CONFORMANCE_API_KEY: 'sk_env_key' }, cwd);
    expect(settings.baseUrl).toBe('https://from-dotenv.test');
    expect(settings.apiKey).toBe('sk_env_key');
    expect(settings.reportDir).toBe(join(cwd, 'out'));
  });

  test('flags win over the environment', () => {
    const settings = readSettings(
      ['--base-url', 'http://flag.test:8080/'],
      { CONFORMANCE_BASE_URL: 'http://env.test', CONFORMANCE_API_KEY: 'sk_test_key' },
      scratch(),
    );
    expect(settings.baseUrl).toBe('http://flag.test:8080');
  });

  test.each([
    [['--base-url', 'not a url'], { CONFORMANCE_API_KEY: 'sk_test_key' }],
    [['--base-url', 'ftp://x.test'], { CONFORMANCE_API_KEY: 'sk_test_key' }],
    [['--base-url', 'https://x.test/api/v1'], { CONFORMANCE_API_KEY: 'sk_test_key' }],
    [['--only', 'NOPE-1'], {}],
    [['--seed', 'abc'], {}],
    [['--timeout', '5'], {}],
    [['--header', 'no colon here'], {}],
    [['--header', 'Authorization: Bearer x'], {}],
    [['--no-such-flag'], {}],
    [['stray-positional'], {}],
  ])('rejects %j with a one-line setting error', (args, env) => {
    expect(codeOf(() => readSettings(args, env, scratch()))).toBe('CONF_SETTING_INVALID');
  });

  test('extra headers come from the environment, one per line, and from repeated --header', () => {
    const settings = readSettings(['--header', 'X-Gateway: two'], { CONFORMANCE_EXTRA_HEADERS: 'X-Tenant: one\n\nX-Trace: on' }, scratch());
    expect(settings.extraHeaders).toEqual([
      ['X-Tenant', 'one'],
      ['X-Trace', 'on'],
      ['X-Gateway', 'two'],
    ]);
  });

  test('--only and --skip take clause IDs and families, comma-separated, in any case', () => {
    const settings = readSettings(['--only', 'gen,PAG-4', '--skip', 'RATE'], {}, scratch());
    expect(settings.only).toEqual(['GEN', 'PAG-4']);
    expect(settings.skip).toEqual(['RATE']);
  });
});
