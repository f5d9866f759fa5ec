import { sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../files/atomic.js';
import { join } from 'node:path';
import { canonicalJson } from './canonical-json.js';
import { sha256 } from './digest.js';
import type { SigningKey } from './signing-key.js';
import type { SuiteIdentity } from './suite-identity.js';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 'api-v1-conformance-manifest';
export const MANIFEST_FORMAT_VERSION = 1;

/** One file of the report folder, by its path relative to the folder. */
export interface ManifestFile {
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

/** One exchange of a check's evidence in `conformance.json`, by where it sits there. */
export interface ManifestEvidence {
  /** `<clause>/<check index>/<exchange index>`, indices from 0 in the order of conformance.json. */
  readonly id: string;
  readonly check: string;
  /** Of the exchange's canonical JSON (`canonical-json.ts`). */
  readonly sha256: string;
}

export interface ManifestSignature {
  readonly algorithm: 'Ed25519';
  /** The public key, DER (SPKI) in base64: what the signature checks against without `--public-key`. */
  readonly publicKey: string;
  readonly publicKeyFingerprint: string;
  /** Over the canonical JSON of the manifest with this member's `value` left out. */
  readonly value: string;
}

/** `manifest.json`: what a report folder held when the run wrote it. */
export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  formatVersion: typeof MANIFEST_FORMAT_VERSION;
  createdAt: string;
  suite: SuiteIdentity | null;
  files: ManifestFile[];
  /** Every exchange of evidence in the report's `conformance.json`, when the folder holds one. */
  evidence: ManifestEvidence[];
  signature?: ManifestSignature;
}

/**
 * What of a report the manifest digests: each check's evidence, by clause (`conformance.json`'s
 * members, as far as the manifest reads them).
 */
export interface EvidencedReport {
  readonly clauses: readonly { readonly id: string; readonly checks: readonly { readonly title: string; readonly evidence?: readonly unknown[] }[] }[];
}

/** The digest of one file. */
export function fileEntry(dir: string, path: string): ManifestFile {
  const bytes = readFileSync(join(dir, path));
  return { path, sha256: sha256(bytes), bytes: bytes.length };
}

/** Every exchange of evidence of a report, each with the digest of its canonical JSON. */
export function evidenceEntries(document: EvidencedReport): ManifestEvidence[] {
  const out: ManifestEvidence[] = [];
  for (const clause of document.clauses ?? []) {
    (clause.checks ?? []).forEach((check, c) => {
      (check.evidence ?? []).forEach((exchange, e) => out.push({ id: `${clause.id}/${c}/${e}`, check: check.title, sha256: sha256(canonicalJson(exchange)) }));
    });
  }
  return out;
}

/** What a signature covers: the manifest without the signature's own value. */
export function signedText(manifest: Manifest): string {
  const { signature, ...rest } = manifest;
  if (!signature) return canonicalJson(rest);
  const { value: _value, ...signer } = signature;
  return canonicalJson({ ...rest, signature: signer });
}

/**
 * Writes `manifest.json` in `dir` over the given files (paths relative to it, as written: the
 * digests are taken now) and, when the folder holds a report, over each exchange of its evidence;
 * signed when a key is given. Returns the manifest's path.
 */
export function writeManifest(
  dir: string,
  files: readonly string[],
  options: { readonly suite: Manifest['suite']; readonly document?: EvidencedReport | null; readonly key?: SigningKey | null },
): string {
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    formatVersion: MANIFEST_FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    suite: options.suite,
    files: files.map((path) => fileEntry(dir, path)),
    evidence: options.document ? evidenceEntries(options.document) : [],
  };
  if (options.key) {
    const publicKey = options.key.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const unsigned: Manifest = { ...manifest, signature: { algorithm: 'Ed25519', publicKey, publicKeyFingerprint: options.key.fingerprint, value: '' } };
    manifest.signature = { ...unsigned.signature!, value: sign(null, Buffer.from(signedText(unsigned)), options.key.privateKey).toString('base64') };
  }
  const file = join(dir, MANIFEST_FILE);
  writeFileAtomic(file, `${JSON.stringify(manifest, null, 2)}\n`);
  return file;
}
