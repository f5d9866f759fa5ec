import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Ledger } from '../../broker/ledger.js';
import { readSettings } from '../../config/settings.js';
import { closeDispatcher, HttpClient } from '../../http/client.js';
import { ownPacing } from '../../pacing/own-pacing.js';
import { DOCUMENT_LIMITS } from '../../profile/profile.js';
import { newRunId } from '../../run/run-id.js';
import { ConformanceError } from '../../errors.js';
import { probeFacts, profileOf, type Facts, type How } from '../../init/probe-profile.js';
import { schemaErrors } from '../../schemas.js';
import type { Command } from '../command.js';

const FLAGS = {
  'base-url': { type: 'string' },
  header: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  out: { type: 'string' },
  name: { type: 'string' },
  force: { type: 'boolean' },
  'report-dir': { type: 'string' },
} as const;

/**
 * `conformance init --base-url URL [--out FILE] [--name NAME] [--force] [--report-dir DIR]`: probes the target for
 * the facts the document leaves open and writes a profile draft. The profile schema admits no
 * member of our own, so how each fact was learnt goes in a sibling file, `<out>.facts.json`
 * ("found": the target answered so; "guessed": the usual value, unseen; "not found": null in the
 * draft, to be declared), and on the terminal.
 * The key it creates to learn the key facts is in the ledger of the report folder like a run's,
 * so that `cleanup` deletes it if init could not.
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
    ...(values['report-dir'] ? ['--report-dir', values['report-dir']] : []),
  ]);
  if (!settings.baseUrl) throw new ConformanceError('CONF_SETTING_INVALID', 'init needs the target: --base-url URL or CONFORMANCE_BASE_URL');
  const out = resolve(values.out ?? 'profile.draft.json');
  const factsFile = out.replace(/(\.json)?$/, '.facts.json');
  if (!values.force && existsSync(out)) throw new ConformanceError('CONF_SETTING_INVALID', `${out} exists: give --force to replace it, or another --out`);

  io.out(`init: probing ${settings.baseUrl} for the facts the document leaves open`);
  const preflight = await fetchStatus(settings.baseUrl);
  if (preflight === null) throw new ConformanceError('CONF_TARGET_UNREACHABLE', `${settings.baseUrl} does not answer`);
  const http = new HttpClient({
    baseUrl: settings.baseUrl,
    keys: { main: settings.apiKey, other: null },
    extraHeaders: settings.extraHeaders,
    timeoutMs: settings.timeoutMs,
    // No profile yet: the document's figures, corrected by the target's headers.
    hooks: ownPacing(DOCUMENT_LIMITS),
    currentCheck: () => 'init',
  });
  const facts = await probeFacts({ http, key: settings.apiKey!, ledger: new Ledger(settings.ledgerFile), runId: newRunId() }, io.out).finally(closeDispatcher);
  const profile = profileOf(values.name ?? `draft for ${new URL(settings.baseUrl).host}`, facts);
  const problems = schemaErrors('profile', profile);
  if (problems.length > 0) throw new ConformanceError('CONF_SUITE_FAULT', `init built a profile the schema refuses: ${problems.join('; ')}`);

  writeFileSync(out, `${JSON.stringify(profile, null, 2)}\n`);
  writeFileSync(factsFile, `${JSON.stringify({ profile: out, target: settings.baseUrl, probedAt: new Date().toISOString(), facts }, null, 2)}\n`);
  for (const line of factLines(facts)) io.out(line);
  const counts: Record<How, number> = { found: 0, guessed: 0, 'not found': 0 };
  for (const fact of Object.values(facts)) counts[fact.how]++;
  io.out(
    `profile draft: ${out} (${counts.found} facts found, ${counts.guessed} guessed, ${counts['not found']} not found: check the guessed ones, declare those not found)`,
  );
  io.out(`how each fact was learnt: ${factsFile}`);
  return 0;
};

/** A fact a line: `found     paths.workspace = "/api/v1/workspaces/{id}"  (why)`; one not found has no value to show. */
function factLines(facts: Facts): string[] {
  return Object.entries(facts).map(([place, fact]) =>
    fact.how === 'not found' ? `  not found ${place}: ${fact.why}` : `  ${fact.how.padEnd(9)} ${place} = ${JSON.stringify(fact.value)}  (${fact.why})`,
  );
}

/** Whether anything answers at the base URL: a refused connection is a setting error (exit 2). */
async function fetchStatus(baseUrl: string): Promise<number | null> {
  try {
    return (await fetch(`${baseUrl}/api/v1/`, { signal: AbortSignal.timeout(10_000) })).status;
  } catch {
    return null;
  }
}
