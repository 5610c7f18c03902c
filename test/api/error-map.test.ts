/**
 * The result-code table, the error map and docs/errors.md stay in step: the doc is
 * regenerated in memory and compared with the committed file.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ERROR_MAP, wireError } from '../../src/api/error-map.ts';
import { RESULT_CODES } from '../../src/domain/result-code.ts';
import { ERRORS_DOC_PATH, renderErrorsDoc } from '../../scripts/errors-doc.ts';

test('docs/errors.md when regenerated from the error map is unchanged', () => {
  const committed = readFileSync(ERRORS_DOC_PATH, 'utf8');
  assert.ok(
    committed === renderErrorsDoc(),
    'docs/errors.md is out of date with src/api/error-map.ts: run `npx tsx scripts/errors-doc.ts`',
  );
});

test('docs/errors.md when read names every result code and every wire code', () => {
  const doc = readFileSync(ERRORS_DOC_PATH, 'utf8');
  for (const code of RESULT_CODES)
    assert.ok(doc.includes(`\`${code}\``), `${code} missing from docs/errors.md`);
  for (const entry of Object.values(ERROR_MAP)) {
    assert.ok(doc.includes(`\`${entry.code}\``), `wire code ${entry.code} missing from docs/errors.md`);
  }
});

test('error map when listing every result code gives a string wire code, a message and an error status', () => {
  const dialects = ['v2', 'v2-spot', 'v2-mix', 'v3', 'admin'] as const;
  for (const code of RESULT_CODES) {
    if (code === 'OK') continue;
    for (const dialect of dialects) {
      const wire = wireError(code, dialect);
      assert.match(wire.code, /^\d{3,6}$/, `${code} (${dialect}) wire code`);
      assert.notEqual(wire.code, '00000');
      assert.ok(wire.msg.length > 0, `${code} (${dialect}) message`);
      assert.ok(wire.http >= 400 && wire.http < 600, `${code} (${dialect}) status ${wire.http}`);
    }
  }
});

test('wireError when given parameters fills the message slots', () => {
  assert.deepEqual(wireError('PARAM_EMPTY', 'v2', ['symbol']), {
    code: '40019',
    msg: 'Parameter symbol cannot be empty',
    http: 400,
  });
  assert.equal(
    wireError('PERMISSION_DENIED', 'v2-spot', ['read']).msg,
    'Incorrect permissions, need read permissions',
  );
});

test('wireError when a slot has no parameter leaves no placeholder and no trailing space', () => {
  const wire = wireError('BODY_NOT_JSON', 'v2');
  assert.equal(wire.msg, 'Parameter verification failed');
  assert.ok(!wire.msg.includes('{'));
});

test('wireError when the venue answers per API family picks the family code', () => {
  assert.equal(wireError('INSUFFICIENT_BALANCE', 'v2-spot').code, '43012');
  assert.equal(wireError('INSUFFICIENT_BALANCE', 'v2-mix').code, '40762');
  assert.equal(wireError('INSUFFICIENT_BALANCE', 'v3').code, '25202');
  assert.deepEqual(wireError('RATE_LIMITED', 'v3'), { code: '429', msg: 'Too Many Requests', http: 429 });
  assert.deepEqual(wireError('PATH_NOT_FOUND', 'v2'), {
    code: '40404',
    msg: 'Request URL NOT FOUND',
    http: 404,
  });
});
