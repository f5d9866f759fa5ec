import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConformanceError } from '../../errors.js';
import { loadPublicKey } from '../../integrity/signing-key.js';
import { answerLine, certifies, claimLine, reportClaim, signatureLine, suiteLine, verified, verifyFolder } from '../../report/verify.js';
import type { Command } from '../command.js';

const FLAGS = { 'public-key': { type: 'string' }, 'expect-suite': { type: 'string' } } as const;

/**
 * `conformance verify DIR [--public-key FILE]`: whether a report folder is the one the run wrote,
 * and what it says. Its first line is the whole answer (`intact, signed by sha256:…`,
 * `CHANGED: conformance.json`, `intact, but not a certificate: inconclusive`), then the report's
 * verdict, completeness and mode. Exit 0 when every file and every piece of evidence matches its
 * digest in `manifest.json`, the signature holds (by the given key, when one is given) and, for a
 * certification run, the run certified (conformant and complete); 1 naming each thing that
 * changed, a signature that does not hold, with `--expect-suite DIGEST` a report made by another
 * suite, or a certification run that did not certify: a script that gates on `verify` never
 * accepts an inconclusive certification; 2 when the folder, the manifest or the key cannot be read.
 */
export const verifyCommand: Command = async (args, io) => {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: FLAGS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new ConformanceError('CONF_SETTING_INVALID', (error as Error).message.split('\n')[0]!);
  }
  if (parsed.positionals.length !== 1)
    throw new ConformanceError('CONF_SETTING_INVALID', 'usage: conformance verify DIR [--public-key FILE] [--expect-suite sha256:HEX]');
  const dir = resolve(parsed.positionals[0]!);
  const publicKey = parsed.values['public-key'] ? loadPublicKey(resolve(parsed.values['public-key'])) : null;
  const result = verifyFolder(dir, publicKey);
  const expected = parsed.values['expect-suite']?.trim().toLowerCase() ?? null;
  const otherSuite = expected !== null && normalDigest(result.suite?.digest) !== normalDigest(expected);
  const claim = reportClaim(dir);
  io.out(answerLine(result, publicKey, claim, otherSuite));
  io.out(claimLine(claim));
  for (const line of result.changed) io.out(`  ${line}`);
  io.out(signatureLine(result, publicKey));
  io.out(suiteLine(result));
  if (otherSuite) io.out(`suite: not the one expected (${expected}): the report was made by another suite, or an altered one`);
  const intact = verified(result) && !otherSuite;
  const ok = intact && (claim === null || !claim.certification || certifies(claim));
  io.out(
    ok
      ? `verify: ${dir}: ${result.checkedFiles} file(s) and ${result.checkedEvidence} piece(s) of evidence as the run wrote them`
      : intact
        ? `verify: ${dir}: ${result.checkedFiles} file(s) and ${result.checkedEvidence} piece(s) of evidence as the run wrote them; the certification run did not certify (${claim?.verdict})`
        : `verify: ${dir}: ${result.changed.length > 0 ? `${result.changed.length} change(s)` : 'the files match'}${result.signature === 'valid' || result.signature === 'unsigned' ? '' : ', the signature does not hold'}${otherSuite ? ', made by another suite' : ''}`,
  );
  return ok ? 0 : 1;
};

/** A digest as `sha256:<hex>`, given with or without its prefix. */
function normalDigest(digest: string | undefined): string | null {
  if (!digest) return null;
  return digest.startsWith('sha256:') ? digest : `sha256:${digest}`;
}
