import { expect, test } from 'vitest';
import { Redactor } from '../src/secrets/redactor.js';
import type { ConformanceDocument } from '../src/report/document.js';
import { alteredOwnWords } from '../src/secrets/own-words.js';

// A value wrongly taken for a secret must never rewrite a verdict: a report whose own words the
// redaction would alter is a fault of the suite, and the run says so (inconclusive).

const document = {
  format: 'api-v1-conformance-report',
  verdict: 'non-conformant',
  complete: true,
  clauses: [
    {
      id: 'KEY-4',
      level: 'MUST',
      family: 'KEY',
      status: 'fail',
      section: 'Authentication',
      summary: 'After creation, no response contains a part of the secret.',
      checks: [{ clause: 'KEY-4', key: 'run-wide', title: 'no response of the run contains a part of its secret', status: 'fail' }],
    },
  ],
} as unknown as ConformanceDocument;

test("redaction that would alter the suite's own words is named, one that would not is not", () => {
  const overlapping = new Redactor();
  overlapping.add('conformance-20261123T1057-abc123-created', null);
  expect(alteredOwnWords(document, overlapping)).toMatch(/would alter the suite's own words/);
  const unrelated = new Redactor();
  unrelated.add('sk_MSN90mt7hU5xrm4fL-gUfU3Ryh2R4xju', 'sk_');
  expect(alteredOwnWords(document, unrelated)).toBeNull();
});
