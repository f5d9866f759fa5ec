import { describe, expect, test } from 'vitest';
import { FLAGS, readSettings } from '../src/config/settings.js';
import { runCli } from './support/cli.js';
import { scratch } from './support/commands.js';

// Issue 34: --help teaches: usage, commands, every flag the parser accepts with a one-line
// description, its unit and default, in groups, and two examples; durations in one spelling.

describe('conformance --help', () => {
  test('lists every flag the parser accepts, each once with a description, in groups, with examples', async () => {
    const help = await runCli(['--help']);
    expect(help.exitCode).toBe(0);
    const lines = help.stdout.split('\n');
    const flagSection = help.stdout.slice(help.stdout.indexOf('\nTarget:'), help.stdout.indexOf('\nDURATION:')).split('\n');
    const flagLines = flagSection.filter((l) => /^ {2}(-h, )?--[a-z-]+/.test(l));
    const listed = flagLines.map((l) => /--([a-z-]+)/.exec(l)![1]!);
    expect([...listed].sort()).toEqual(Object.keys(FLAGS).sort());
    for (const line of flagLines) expect(line.replace(/^ {2}(-h, )?--[a-z-]+( \S+| "[^"]+")?/, '').trim().length, line).toBeGreaterThan(10);
    for (const group of ['Target:', 'Selection:', 'Reports:', 'Safety', 'Certification:'])
      expect(
        lines.some((l) => l.startsWith(group)),
        group,
      ).toBe(true);
    expect(help.stdout).toMatch(/^usage: conformance /);
    expect(help.stdout).toMatch(/--timeout DURATION .*\(default: 10s\)/);
    expect(help.stdout).toMatch(/--teardown-timeout DURATION .*\(default: 10s\)/);
    expect(help.stdout.split('Examples:')[1]!.match(/^ {2}(npm|CONFORMANCE_API_KEY=\.\.\. npx) /gm)).toHaveLength(2);
    // Every command the CLI knows is listed.
    for (const command of ['run', 'init', 'cleanup', 'diff', 'rerun', 'verify', 'fleet', 'ci'])
      expect(help.stdout).toMatch(new RegExp(`^ {2}${command}\\b`, 'm'));
  });
});

describe('durations', () => {
  const ms = (flag: string, value: string) => {
    const s = readSettings([flag, value], {}, scratch());
    return flag === '--timeout' ? s.timeoutMs : s.teardownTimeoutMs;
  };
  test('take a unit (ms, s, m) on every flag; a bare number keeps the unit the flag had before', () => {
    expect(ms('--timeout', '10s')).toBe(10_000);
    expect(ms('--timeout', '1500ms')).toBe(1500);
    expect(ms('--timeout', '2m')).toBe(120_000);
    expect(ms('--timeout', '2500')).toBe(2500); // milliseconds, as --timeout MS always was
    expect(ms('--teardown-timeout', '5s')).toBe(5000);
    expect(ms('--teardown-timeout', '5')).toBe(5000); // seconds, as --teardown-timeout S always was
    expect(ms('--teardown-timeout', '1500ms')).toBe(1500);
    expect(() => readSettings(['--timeout', '10 parsecs'], {}, scratch())).toThrow(/--timeout must be a duration/);
    expect(() => readSettings(['--teardown-timeout', '11m'], {}, scratch())).toThrow(/from 1s to 600s/);
  });
});
