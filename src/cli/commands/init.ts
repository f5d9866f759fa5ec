import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readSettings } from '../../config/settings.js';
import { ConformanceError } from '../../errors.js';
import { probeFacts, profileOf, type Facts } from '../../init/probe-profile.js';
import { schemaErrors } from '../../schemas.js';
import type { Command } from '../command.js';

const FLAGS = {
  'base-url': { type: 'string' },
  header: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  out: { type: 'string' },
  name: { type: 'string' },
  force: { type: 'boolean' },
} as const;

/**
 * `conformance init --base-url URL [--out FILE] [--name NAME] [--force]`: probes the target for
 * the facts the document leaves open and writes a profile draft. The profile schema admits no
 * member of our own, so how each fact was learnt goes in a sibling file, `<out>.facts.json`
 * ("probed": the target answered so; "guessed": the usual value, unseen), and on the terminal.
 */
export const initCommand: Command = async (args, io) => {
  let values;
  try {
    ({ values } = parseArgs({ args: [...args], options: FLAGS, allowPositionals: false, strict: true }));
  } catch (error) {
    throw new ConformanceError('CONF_SETTING_INVALID', (error as Error).message.split('\n')[0]!);
  }
  const settings = readSettings([
    ...(values['base-url'] ? ['--base-url', values['base-url']] : []),
    ...(values.header ?? []).flatMap((h) => ['--header', h]),
    ...(values.timeout ? ['--timeout', values.timeout] : []),
  ]);
  if (!settings.baseUrl) throw new ConformanceError('CONF_SETTING_INVALID', 'init needs the target: --base-url URL or CONFORMANCE_BASE_URL');
  const out = resolve(values.out ?? 'profile.draft.json');
  const factsFile = out.replace(/(\.json)?$/, '.facts.json');
  if (!values.force && existsSync(out)) throw new ConformanceError('CONF_SETTING_INVALID', `${out} exists: give --force to replace it, or another --out`);

  io.out(`init: probing ${settings.baseUrl} for the facts the document leaves open`);
  const target = { baseUrl: settings.baseUrl, key: settings.apiKey!, timeoutMs: settings.timeoutMs, extraHeaders: settings.extraHeaders };
  const preflight = await fetchStatus(target.baseUrl);
  if (preflight === null) throw new ConformanceError('CONF_TARGET_UNREACHABLE', `${settings.baseUrl} does not answer`);
  const facts = await probeFacts(target, io.out);
  const profile = profileOf(values.name ?? `draft for ${new URL(settings.baseUrl).host}`, facts);
  const problems = schemaErrors('profile', profile);
  if (problems.length > 0) throw new ConformanceError('CONF_SUITE_FAULT', `init built a profile the schema refuses: ${problems.join('; ')}`);

  writeFileSync(out, `${JSON.stringify(profile, null, 2)}\n`);
  writeFileSync(factsFile, `${JSON.stringify({ profile: out, target: settings.baseUrl, probedAt: new Date().toISOString(), facts }, null, 2)}\n`);
  for (const line of factLines(facts)) io.out(line);
  const counts = Object.values(facts).reduce((n, f) => ({ ...n, [f.how]: n[f.how] + 1 }), { probed: 0, guessed: 0 });
  io.out(`profile draft: ${out} (${counts.probed} facts probed, ${counts.guessed} guessed: check the guessed ones)`);
  io.out(`how each fact was learnt: ${factsFile}`);
  return 0;
};

function factLines(facts: Facts): string[] {
  return Object.entries(facts).map(([place, fact]) => `  ${fact.how.padEnd(8)} ${place} = ${JSON.stringify(fact.value)}  (${fact.why})`);
}

/** Whether anything answers at the base URL: a refused connection is a setting error (exit 2). */
async function fetchStatus(baseUrl: string): Promise<number | null> {
  try {
    return (await fetch(`${baseUrl}/api/v1/`, { signal: AbortSignal.timeout(10_000) })).status;
  } catch {
    return null;
  }
}
