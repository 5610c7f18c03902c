/**
 * docs/endpoints.md is generated (scripts/endpoints-doc.ts) from the route table and the
 * conformance suite's verdicts: the committed page must equal what the script writes now, so a
 * new route, a new client method or a changed verdict cannot leave the page behind.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ENDPOINTS_DOC_PATH, readmeCounts, renderEndpointsDoc } from '../../scripts/endpoints-doc.ts';

test('docs/endpoints.md when regenerated equals the committed page', () => {
  assert.equal(
    readFileSync(ENDPOINTS_DOC_PATH, 'utf8'),
    renderEndpointsDoc(),
    'docs/endpoints.md is out of date: run `npm run endpoints:doc`',
  );
});

test('README when it states the conformance counts states the current ones', () => {
  const readme = readFileSync(ENDPOINTS_DOC_PATH.replace(/docs[/\\]endpoints\.md$/, 'README.md'), 'utf8');
  const counts = readmeCounts();
  assert.ok(readme.replace(/\s+/g, ' ').includes(counts), `README.md should say: ${counts}`);
});
