import { existsSync, mkdirSync } from 'node:fs';
import { writeFileAtomic } from '../files/atomic.js';
import { join, relative } from 'node:path';
import type { Redactor } from '../secrets/redactor.js';
import { MANIFEST_FILE, writeManifest } from '../integrity/manifest.js';
import type { SigningKey } from '../integrity/signing-key.js';
import { renderFleetHtml } from './fleet-html.js';
import { renderFleetMarkdown } from './fleet-markdown.js';
import { FLEET_FILES, type FleetReport } from './fleet-report.js';

/**
 * Writes fleet.json, fleet.html and fleet.md in `out`, then its manifest.json: over those three and
 * over the manifest of each deployment folder inside `out` (so `verify` on the fleet folder checks
 * every deployment's reports too). Returns the paths written.
 */
export function writeFleetReport(report: FleetReport, out: string, redactor: Redactor, key: SigningKey | null): string[] {
  mkdirSync(out, { recursive: true });
  const safe = redactor.redactDeep(report);
  const files = {
    [FLEET_FILES.json]: `${JSON.stringify(safe, null, 2)}\n`,
    [FLEET_FILES.html]: redactor.redact(renderFleetHtml(safe)),
    [FLEET_FILES.markdown]: redactor.redact(renderFleetMarkdown(safe)),
  };
  for (const [name, text] of Object.entries(files)) writeFileAtomic(join(out, name), text);
  const nested = report.deployments
    .map((d) => `${d.reportDir}/${MANIFEST_FILE}`)
    .filter((path) => !path.startsWith('..') && !path.startsWith('/') && existsSync(join(out, path)));
  const manifest = writeManifest(out, [...Object.keys(files), ...nested], { suite: null, key });
  return [...Object.keys(files).map((name) => join(out, name)), manifest].map((p) => relative(process.cwd(), p) || p);
}
