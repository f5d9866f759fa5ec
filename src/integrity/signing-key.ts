import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConformanceError } from '../errors.js';
import { sha256 } from './digest.js';

/** The key a run signs its manifest with: Ed25519, from a PEM file or the environment. */
export interface SigningKey {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** `sha256:` and the hex SHA-256 of the public key's DER (SPKI) form. */
  readonly fingerprint: string;
  /** Spellings of the private key that must never reach an output, for the redactor. */
  readonly secretForms: readonly string[];
}

/** Where a signing key comes from: a file named by `--sign-key` or `CONFORMANCE_SIGN_KEY_FILE`, or the PEM in `CONFORMANCE_SIGN_KEY`. */
export type SigningKeySource = { readonly file: string } | { readonly pem: string; readonly from: string };

/**
 * Reads an Ed25519 private key in PEM (PKCS#8, as `openssl genpkey -algorithm ed25519` writes it).
 * Anything else is a setting error, named without a byte of the key.
 */
export function loadSigningKey(source: SigningKeySource): SigningKey {
  const where = 'file' in source ? `--sign-key file "${source.file}"` : source.from;
  let pem: string;
  try {
    pem = 'file' in source ? readFileSync(source.file, 'utf8') : source.pem;
  } catch (error) {
    throw new ConformanceError('CONF_SIGN_KEY_INVALID', `${where} cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new ConformanceError('CONF_SIGN_KEY_INVALID', `${where} is not a private key in PEM`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new ConformanceError('CONF_SIGN_KEY_INVALID', `${where} is an ${privateKey.asymmetricKeyType ?? 'unknown'} key: the manifest is signed with Ed25519`);
  }
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, fingerprint: fingerprintOf(publicKey), secretForms: secretFormsOf(privateKey, pem) };
}

/** Reads the public key a report is checked against (a private key is accepted too: its public half is used). */
export function loadPublicKey(file: string): KeyObject {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConformanceError('CONF_SIGN_KEY_INVALID', `public key "${file}" cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw new ConformanceError('CONF_SIGN_KEY_INVALID', `public key "${file}" is not a key in PEM`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new ConformanceError('CONF_SIGN_KEY_INVALID', `public key "${file}" is not an Ed25519 key`);
  return key;
}

/** `sha256:<hex>` of the DER SubjectPublicKeyInfo: `openssl pkey -pubin -in key.pub -outform DER | sha256sum` gives the same. */
export function fingerprintOf(publicKey: KeyObject): string {
  return `sha256:${sha256(publicKey.export({ type: 'spki', format: 'der' }))}`;
}

/**
 * The private key's own bytes in the spellings an output could carry them: the PEM body past
 * the DER header every Ed25519 key shares (which also starts public keys, so it must stay
 * printable), and the 32-byte seed in hex and base64.
 */
function secretFormsOf(privateKey: KeyObject, pem: string): string[] {
  const der = privateKey.export({ type: 'pkcs8', format: 'der' });
  const seed = der.subarray(der.length - 32);
  const body = der.toString('base64');
  const forms = [seed.toString('hex'), seed.toString('base64'), body.slice(24)];
  // The file as given may be laid out differently (line breaks): its base64 lines count too.
  for (const line of pem.split(/\r?\n/)) if (/^[A-Za-z0-9+/=]{40,}$/.test(line.trim())) forms.push(line.trim().slice(24));
  return [...new Set(forms)];
}
