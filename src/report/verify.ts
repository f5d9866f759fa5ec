import { readJsonFile } from '../files/json-file.js';
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConformanceError } from '../errors.js';
import { REPORT_FILES } from './write.js';
import { modeHeadline, type ConformanceDocument } from './document.js';
import { schemaErrors } from '../schemas.js';
import { sha256 } from '../integrity/digest.js';
import { evidenceEntries, MANIFEST_FILE, signedText, type Manifest } from '../integrity/manifest.js';
import { fingerprintOf } from '../integrity/signing-key.js';

/** How a manifest's signature stands; `missing`: unsigned, and a public key asked for a signature. */
export type SignatureState = 'valid' | 'invalid' | 'unsigned' | 'missing' | 'other-key';

export interface Verification {
  readonly dir: string;
  /** One line per file or exchange of evidence that is not as the manifest says, nested folders included. */
  readonly changed: string[];
  readonly signature: SignatureState;
  /** The fingerprint of the key the manifest says signed it. */
  readonly signedBy: string | null;
  /** Files and exchanges checked, nested folders included. */
  readonly checkedFiles: number;
  readonly checkedEvidence: number;
  /** The suite the manifest says made the report (its digest, version, commit, and whether its tree was dirty). */
  readonly suite: Manifest['suite'];
}

/** Whether a verification holds: nothing changed, and a signature that holds, or none and no key asks for one. */
export function verified(v: Verification): boolean {
  return v.changed.length === 0 && (v.signature === 'valid' || v.signature === 'unsigned');
}

/**
 * Checks a report folder against its `manifest.json`: every file's digest, every exchange of
 * evidence of its `conformance.json`, and the signature, against `publicKey` when given (an
 * unsigned manifest then fails) or else against the key the manifest names. A manifest listing
 * another folder's `manifest.json` (a fleet's) has that folder checked too.
 * An unreadable folder or manifest is bad input (CONF_MANIFEST_INVALID, exit 2).
 */
export function verifyFolder(dir: string, publicKey: KeyObject | null = null): Verification {
  const manifest = readManifest(dir);
  const changed: string[] = [];
  let checkedFiles = 0;
  let checkedEvidence = 0;
  let nestedSignature: SignatureState | null = null;
  for (const entry of manifest.files) {
    checkedFiles++;
    const file = join(dir, entry.path);
    if (!existsSync(file)) {
      changed.push(`${entry.path}: missing`);
      continue;
    }
    const bytes = readFileSync(file);
    if (sha256(bytes) !== entry.sha256)
      changed.push(`${entry.path}: changed (sha256 ${sha256(bytes).slice(0, 12)}…, the manifest says ${entry.sha256.slice(0, 12)}…)`);
    if (entry.path.endsWith(`/${MANIFEST_FILE}`)) {
      const nested = verifyFolder(join(dir, dirname(entry.path)), publicKey);
      changed.push(...nested.changed.map((line) => `${dirname(entry.path)}/${line}`));
      checkedFiles += nested.checkedFiles;
      checkedEvidence += nested.checkedEvidence;
      if (nested.signature !== 'valid' && nested.signature !== 'unsigned') nestedSignature ??= nested.signature;
    }
  }
  const report = manifest.files.find((f) => f.path === REPORT_FILES.json);
  if (report && existsSync(join(dir, report.path))) {
    const evidence = evidenceOf(join(dir, report.path));
    if (evidence === null) changed.push(`${report.path}: not JSON any more, its evidence cannot be checked`);
    else {
      const now = new Map(evidence.map((e) => [e.id, e]));
      for (const entry of manifest.evidence) {
        checkedEvidence++;
        const found = now.get(entry.id);
        if (!found) changed.push(`${report.path}: evidence ${entry.id} ("${entry.check}") missing`);
        else if (found.sha256 !== entry.sha256) changed.push(`${report.path}: evidence ${entry.id} ("${entry.check}") changed`);
        now.delete(entry.id);
      }
      for (const extra of now.values()) changed.push(`${report.path}: evidence ${extra.id} ("${extra.check}") is not in the manifest`);
    }
  }
  const own = signatureOf(manifest, publicKey);
  const signature = own.state === 'valid' || own.state === 'unsigned' ? (nestedSignature ?? own.state) : own.state;
  return { dir, changed, signature, signedBy: own.signedBy, checkedFiles, checkedEvidence, suite: manifest.suite };
}

/** The line `verify` prints about the suite that made the report. */
export function suiteLine(v: Verification): string {
  const s = v.suite;
  if (!s) return 'suite: not named (a fleet manifest: each deployment names its own)';
  const dirty = s.dirty?.length ? `, from a working tree that differs from its commit (${s.dirty.join(', ')})` : '';
  return `suite: ${s.digest ?? 'no digest (made by a suite older than suite digests)'}, version ${s.version}, commit ${s.commit ?? 'unknown'}${dirty}`;
}

/** What a report folder's `conformance.json` says of itself: what `verify` prints after the integrity. */
export interface ReportClaim {
  readonly verdict: ConformanceDocument['verdict'];
  readonly complete: boolean;
  /** The mode's headline: `Certification run`, or `not a certification: --only KEY, unsigned`. */
  readonly mode: string;
  readonly certification: boolean;
  /** Why the run stopped short, where it did. */
  readonly stopped: string | null;
}

/** The claim of the folder's `conformance.json`; null where it cannot be read (a fleet's folder, or a file made unreadable). */
export function reportClaim(dir: string): ReportClaim | null {
  try {
    const doc = JSON.parse(readFileSync(join(dir, REPORT_FILES.json), 'utf8')) as ConformanceDocument;
    if (typeof doc.verdict !== 'string') return null;
    return {
      verdict: doc.verdict,
      complete: doc.complete === true,
      mode: modeHeadline(doc),
      certification: doc.mode?.certification === true,
      stopped: doc.stopped?.headline ?? null,
    };
  } catch {
    return null;
  }
}

/** A certification run that certified: conformant, every clause judged. */
export function certifies(claim: ReportClaim): boolean {
  return claim.certification && claim.verdict === 'conformant' && claim.complete;
}

/**
 * `verify`'s first line, the whole answer: `intact, signed by sha256:…`, `CHANGED: conformance.json`,
 * or, for an intact certification run that did not certify, `intact, but not a certificate: inconclusive`.
 */
export function answerLine(v: Verification, publicKey: KeyObject | null, claim: ReportClaim | null, otherSuite: boolean): string {
  if (v.changed.length > 0) {
    const files = [...new Set(v.changed.map((line) => line.split(':')[0]!))];
    return `CHANGED: ${files.join(', ')}`;
  }
  switch (v.signature) {
    case 'invalid':
      return `CHANGED: ${MANIFEST_FILE} (its signature does not hold)`;
    case 'other-key':
      return `SIGNED BY ANOTHER KEY: ${v.signedBy}, not the one given (${publicKey ? fingerprintOf(publicKey) : 'none'})`;
    case 'missing':
      return 'UNSIGNED, and --public-key asks for a signature';
    case 'valid':
    case 'unsigned':
      break;
  }
  if (otherSuite) return 'intact, but MADE BY ANOTHER SUITE than the one expected';
  const intact = v.signature === 'valid' ? `intact, signed by ${v.signedBy}` : 'intact, unsigned';
  if (claim?.certification && !certifies(claim)) return `${intact}, but not a certificate: ${claim.verdict}${claim.complete ? '' : ' (incomplete)'}`;
  return intact;
}

/** The line `verify` prints about what the report says: its verdict, completeness and mode. */
export function claimLine(claim: ReportClaim | null): string {
  if (!claim) return `report: no verdict to read (no readable ${REPORT_FILES.json} in the folder)`;
  return `report: ${claim.verdict}, ${claim.complete ? 'complete' : 'incomplete'}; ${claim.mode}${claim.stopped ? `; ${claim.stopped}` : ''}`;
}

/** The lines `verify` prints about the signature: never "valid" beside a file that does not match. */
export function signatureLine(v: Verification, publicKey: KeyObject | null): string {
  const given = publicKey ? fingerprintOf(publicKey) : null;
  switch (v.signature) {
    case 'valid':
      if (v.changed.length > 0) return `signature: Ed25519 key ${v.signedBy} signed the manifest, and the files above do not match it`;
      return `signature: valid, Ed25519 key ${v.signedBy}${given ? ' (the key given)' : ' (no --public-key given: this says the manifest is whole, not who signed it)'}`;
    case 'unsigned':
      return 'signature: none (the digests show the files are those the manifest lists, not who wrote them)';
    case 'missing':
      return 'signature: none, and --public-key asks for one';
    case 'other-key':
      return `signature: by another key (${v.signedBy}), not the one given (${given})`;
    case 'invalid':
      return `signature: does not hold${v.signedBy ? ` for key ${v.signedBy}` : ''}: the manifest was changed after it was signed`;
  }
}

function signatureOf(manifest: Manifest, publicKey: KeyObject | null): { state: SignatureState; signedBy: string | null } {
  const signature = manifest.signature;
  if (!signature) return { state: publicKey ? 'missing' : 'unsigned', signedBy: null };
  let named: KeyObject;
  try {
    named = createPublicKey({ key: Buffer.from(signature.publicKey, 'base64'), format: 'der', type: 'spki' });
  } catch {
    return { state: 'invalid', signedBy: signature.publicKeyFingerprint };
  }
  const signedBy = fingerprintOf(named);
  if (signedBy !== signature.publicKeyFingerprint) return { state: 'invalid', signedBy: signature.publicKeyFingerprint };
  if (publicKey && fingerprintOf(publicKey) !== signedBy) return { state: 'other-key', signedBy };
  const holds = verify(null, Buffer.from(signedText(manifest)), publicKey ?? named, Buffer.from(signature.value, 'base64'));
  return { state: holds ? 'valid' : 'invalid', signedBy };
}

function readManifest(dir: string): Manifest {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ConformanceError('CONF_MANIFEST_INVALID', `"${dir}" is not a folder`);
  const file = join(dir, MANIFEST_FILE);
  const data = readJsonFile(
    file,
    ({ errno, message }) =>
      new ConformanceError('CONF_MANIFEST_INVALID', errno === 'ENOENT' ? `"${dir}" holds no ${MANIFEST_FILE}` : `"${file}" cannot be read as JSON: ${message}`),
  );
  const problems = schemaErrors('manifest', data);
  if (problems.length > 0) throw new ConformanceError('CONF_MANIFEST_INVALID', `"${file}" is not a report manifest: ${problems.slice(0, 3).join('; ')}`);
  return data as Manifest;
}

function evidenceOf(file: string): ReturnType<typeof evidenceEntries> | null {
  try {
    return evidenceEntries(JSON.parse(readFileSync(file, 'utf8')) as ConformanceDocument);
  } catch {
    return null;
  }
}
