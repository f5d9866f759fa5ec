import { generateKeyPairSync } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { canonicalJson } from '../src/integrity/canonical-json.js';
import { writeManifest, type Manifest } from '../src/integrity/manifest.js';
import { loadSigningKey } from '../src/integrity/signing-key.js';
import { verified, verifyFolder } from '../src/report/verify.js';
import type { ConformanceDocument } from '../src/report/document.js';
import { schemaErrors } from '../src/schemas.js';
import { readJson, runConformance, scratch, targetEnv, withMutants, withReference, type CommandResult } from './support/commands.js';

/** An Ed25519 key pair in PEM files, as `openssl genpkey -algorithm ed25519` writes them. */
function keyPair(dir: string, name: string): { privateFile: string; publicFile: string; privatePem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const privateFile = join(dir, `${name}.pem`);
  const publicFile = join(dir, `${name}.pub`);
  writeFileSync(privateFile, privatePem);
  writeFileSync(publicFile, publicKey.export({ type: 'spki', format: 'pem' }).toString());
  return { privateFile, publicFile, privatePem };
}

const keys = scratch('keys-');
const vendor = keyPair(keys, 'vendor');
const stranger = keyPair(keys, 'stranger');

let signed: CommandResult & { dir: string };

beforeAll(async () => {
  // A MUST fault (RES-1) and a SHOULD one (GEN-2): the report carries evidence to tamper with.
  signed = await withReference(withMutants('workspace-description-null', 'version-prefix-ignored'), async (target) => {
    const cwd = scratch();
    const profile = join(cwd, 'profile.json');
    writeFileSync(profile, JSON.stringify(target.profile));
    const dir = join(cwd, 'reports');
    const result = await runConformance(
      ['--profile', profile, '--report-dir', dir, '--only', 'GEN,RES', '--seed', '3', '--sign-key', vendor.privateFile],
      targetEnv(target),
      cwd,
    );
    return { ...result, dir };
  });
  expect(signed.exitCode, signed.stderr).toBe(1);
}, 120_000);

/** A copy of the signed report folder, to be tampered with. */
function copy(): string {
  const dir = join(scratch(), 'reports');
  cpSync(signed.dir, dir, { recursive: true });
  return dir;
}

/** Changes one byte of a file, at `at` (the middle by default), to another printable one (a digit stays a digit). */
function flipByte(file: string, at?: number): void {
  const bytes = readFileSync(file);
  const i = at ?? Math.floor(bytes.length / 2);
  const digit = bytes[i]! >= 0x30 && bytes[i]! <= 0x39;
  bytes[i] = digit ? (bytes[i] === 0x30 ? 0x31 : 0x30) : bytes[i] === 0x61 ? 0x62 : 0x61;
  writeFileSync(file, bytes);
}

describe.concurrent('manifest and signature', () => {
  test('a run writes manifest.json with the digest of each report file and each piece of evidence', () => {
    const manifest = readJson<Manifest>(join(signed.dir, 'manifest.json'));
    expect(schemaErrors('manifest', manifest)).toEqual([]);
    expect(manifest.files.map((f) => f.path).sort()).toEqual(['conformance.json', 'ctrf.json', 'exchanges.har', 'junit.xml', 'report.html', 'summary.md']);
    const report = readJson<ConformanceDocument>(join(signed.dir, 'conformance.json'));
    const exchanges = report.clauses.flatMap((c) => c.checks.flatMap((k) => k.evidence ?? []));
    expect(exchanges.length).toBeGreaterThan(0);
    expect(manifest.evidence).toHaveLength(exchanges.length);
    expect(manifest.suite).toEqual(report.suite);
    expect(manifest.signature?.publicKeyFingerprint).toBe(loadSigningKey({ file: vendor.privateFile }).fingerprint);
    expect(signed.stdout).toMatch(/reports: .*manifest\.json$/m);
  });

  test('report.html and conformance.json show the signature state and the key fingerprint', () => {
    const fingerprint = loadSigningKey({ file: vendor.privateFile }).fingerprint;
    const report = readJson<ConformanceDocument>(join(signed.dir, 'conformance.json'));
    expect(report.integrity).toEqual({ manifest: 'manifest.json', signed: true, publicKeyFingerprint: fingerprint });
    const html = readFileSync(join(signed.dir, 'report.html'), 'utf8');
    expect(html).toMatch(/id="signature" data-signed="true">signed \(Ed25519\)/);
    expect(html).toContain(`id="key-fingerprint">${fingerprint}<`);
  });

  test('the signing key reaches no output: neither the report folder nor the console', () => {
    const body = vendor.privatePem.split('\n').filter((l) => /^[A-Za-z0-9+/=]{40,}$/.test(l))[0]!;
    const keyOwn = body.slice(24, 40);
    for (const file of ['conformance.json', 'report.html', 'summary.md', 'junit.xml', 'ctrf.json', 'exchanges.har', 'manifest.json']) {
      expect(readFileSync(join(signed.dir, file), 'utf8'), file).not.toContain(keyOwn);
    }
    expect(signed.stdout + signed.stderr).not.toContain(keyOwn);
    expect(signed.stdout + signed.stderr).not.toContain('SECRET LEAK');
  });

  test('verify exits 0 on the folder as written, against the vendor key', async () => {
    const result = await runConformance(['verify', signed.dir, '--public-key', vendor.publicFile]);
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    const [first, second] = result.stdout.split('\n');
    expect(first).toMatch(/^intact, signed by sha256:[0-9a-f]{64}$/);
    expect(second).toMatch(/^report: non-conformant, incomplete; not a certification: --only GEN,RES/);
    expect(result.stdout).toMatch(/^signature: valid, Ed25519 key sha256:[0-9a-f]{64} \(the key given\)$/m);
    expect(result.stdout).toMatch(/^verify: .*: 6 file\(s\) and \d+ piece\(s\) of evidence as the run wrote them$/m);
  });

  test('the report and the manifest carry the suite digest that --suite-digest prints; verify prints it, --expect-suite checks it', async () => {
    const printed = await runConformance(['--suite-digest']);
    expect(printed.exitCode, printed.stderr).toBe(0);
    const digest = /^(sha256:[0-9a-f]{64}) /.exec(printed.stdout)?.[1];
    expect(digest).toBeDefined();
    const report = readJson<ConformanceDocument>(join(signed.dir, 'conformance.json'));
    expect(report.suite.digest).toBe(digest);
    expect(readJson<Manifest>(join(signed.dir, 'manifest.json')).suite?.digest).toBe(digest);
    const same = await runConformance(['verify', signed.dir, '--expect-suite', digest!]);
    expect(same.exitCode, same.stdout).toBe(0);
    expect(same.stdout).toContain(`suite: ${digest}, version `);
    const other = await runConformance(['verify', signed.dir, '--expect-suite', `sha256:${'0'.repeat(64)}`]);
    expect(other.exitCode).toBe(1);
    expect(other.stdout).toMatch(/^suite: not the one expected \(sha256:0{64}\): the report was made by another suite/m);
  });

  test.each(['conformance.json', 'report.html', 'summary.md', 'junit.xml', 'ctrf.json', 'exchanges.har'])(
    'verify catches a one-byte change in %s and names it',
    (file) => {
      const dir = copy();
      flipByte(join(dir, file));
      const result = verifyFolder(dir);
      expect(verified(result)).toBe(false);
      expect(result.changed.filter((l) => !l.includes('evidence')).map((l) => l.split(':')[0])).toEqual([file]);
    },
  );

  test('verify catches a one-byte change in a piece of evidence and names it, through the CLI', async () => {
    const dir = copy();
    const file = join(dir, 'conformance.json');
    const text = readFileSync(file, 'utf8');
    const report = JSON.parse(text) as ConformanceDocument;
    const clause = report.clauses.find((c) => c.checks.some((k) => (k.evidence?.length ?? 0) > 0))!;
    const c = clause.checks.findIndex((k) => (k.evidence?.length ?? 0) > 0);
    // One digit of the exchange's response status, as it sits in the file: still JSON, another status.
    const status = `"status": ${clause.checks[c]!.evidence![0]!.response!.status}`;
    const at = text.indexOf(status, text.indexOf(`"id": "${clause.id}"`)) + status.length - 1;
    flipByte(file, at);
    const result = await runConformance(['verify', dir, '--public-key', vendor.publicFile]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/^ {2}conformance\.json: changed /m);
    expect(result.stdout).not.toContain('not JSON');
    expect(result.stdout).toContain(`conformance.json: evidence ${clause.id}/${c}/0 ("${clause.checks[c]!.title}") changed`);
    // The first line is the whole answer; the signature is never "valid" beside a file that does not match.
    expect(result.stdout.split('\n')[0]).toBe('CHANGED: conformance.json');
    expect(result.stdout).toMatch(/^report: non-conformant, incomplete; /m);
    expect(result.stdout).not.toMatch(/valid/);
    expect(result.stdout).toMatch(/^signature: Ed25519 key sha256:[0-9a-f]{64} signed the manifest, and the files above do not match it$/m);
  });

  test('evidence is digested as canonical JSON: the same content laid out anew is the same evidence', () => {
    const dir = copy();
    const file = join(dir, 'conformance.json');
    writeFileSync(file, canonicalJson(JSON.parse(readFileSync(file, 'utf8'))));
    const result = verifyFolder(dir);
    expect(result.changed).toEqual([expect.stringMatching(/^conformance\.json: changed /)]);
  });

  test('a report re-signed by another key fails against the vendor key', async () => {
    const dir = copy();
    flipByte(join(dir, 'report.html'));
    // Whoever edited it wrote a fresh manifest and signed it with their own key.
    writeManifest(dir, ['conformance.json', 'report.html', 'summary.md', 'junit.xml'], {
      suite: readJson<Manifest>(join(dir, 'manifest.json')).suite,
      document: readJson<ConformanceDocument>(join(dir, 'conformance.json')),
      key: loadSigningKey({ file: stranger.privateFile }),
    });
    const result = await runConformance(['verify', dir, '--public-key', vendor.publicFile]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout.split('\n')[0]).toMatch(/^SIGNED BY ANOTHER KEY: sha256:[0-9a-f]{64}, not the one given \(sha256:[0-9a-f]{64}\)$/);
    expect(result.stdout).toMatch(/^report: non-conformant, incomplete; /m);
    expect(result.stdout).toMatch(/^signature: by another key \(sha256:[0-9a-f]{64}\), not the one given \(sha256:[0-9a-f]{64}\)$/m);
  });

  test('an intact certification run that did not certify: verify says so first, prints its verdict, and exits 1', async () => {
    const dir = copy();
    // The vendor's own folder of a certification run that ended inconclusive, signed as written.
    const file = join(dir, 'conformance.json');
    const report = readJson<ConformanceDocument>(file);
    writeFileSync(
      file,
      JSON.stringify({ ...report, verdict: 'inconclusive', complete: false, mode: { certification: true, headline: 'Certification run', departures: [] } }),
    );
    writeManifest(dir, ['conformance.json', 'report.html', 'summary.md', 'junit.xml'], {
      suite: readJson<Manifest>(join(dir, 'manifest.json')).suite,
      document: readJson<ConformanceDocument>(file),
      key: loadSigningKey({ file: vendor.privateFile }),
    });
    const result = await runConformance(['verify', dir, '--public-key', vendor.publicFile]);
    const [first, second] = result.stdout.split('\n');
    expect(first).toMatch(/^intact, signed by sha256:[0-9a-f]{64}, but not a certificate: inconclusive \(incomplete\)$/);
    expect(second).toBe('report: inconclusive, incomplete; Certification run');
    expect(result.stdout).toMatch(/^signature: valid, /m);
    // A script that gates on verify never accepts it.
    expect(result.exitCode).toBe(1);
  });

  test('a digest changed in the manifest breaks the signature', () => {
    const dir = copy();
    const manifest = readJson<Manifest>(join(dir, 'manifest.json'));
    manifest.files[1] = { ...manifest.files[1]!, bytes: manifest.files[1]!.bytes + 1 };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    expect(verifyFolder(dir).signature).toBe('invalid');
  });

  test('verify with a public key refuses an unsigned report', async () => {
    const dir = copy();
    const manifest = readJson<Manifest>(join(dir, 'manifest.json'));
    delete manifest.signature;
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    expect(verified(verifyFolder(dir))).toBe(true);
    const result = await runConformance(['verify', dir, '--public-key', vendor.publicFile]);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/^signature: none, and --public-key asks for one$/m);
  });

  test.each([
    [['verify', '/no/such/folder'], /^CONF_MANIFEST_INVALID: /],
    [['verify', scratch()], /^CONF_MANIFEST_INVALID: .* holds no manifest\.json$/m],
    [['verify'], /^CONF_SETTING_INVALID: usage: conformance verify DIR/],
  ])('verify on bad input %j exits 2 with one line', async (args, message) => {
    const result = await runConformance(args);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  test('a signing key that is not an Ed25519 private key is exit 2 with one line, before anything runs', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const file = join(scratch(), 'ec.pem');
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const cwd = scratch();
    const result = await runConformance(['--report-dir', join(cwd, 'reports'), '--sign-key', file], {}, cwd);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^CONF_SIGN_KEY_INVALID: --sign-key file ".*ec\.pem" is an ec key: the manifest is signed with Ed25519\n$/);
    expect(result.stdout).toBe('');
  });

  test('the signing key may come whole from CONFORMANCE_SIGN_KEY', async () => {
    const cwd = scratch();
    const dir = join(cwd, 'reports');
    const result = await runConformance(['--report-dir', dir, '--only', 'GEN'], { CONFORMANCE_SIGN_KEY: vendor.privatePem }, cwd);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(verified(verifyFolder(dir, loadSigningKey({ file: vendor.privateFile }).publicKey))).toBe(true);
  });
});
