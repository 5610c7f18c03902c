/**
 * credentials.json: what a start keeps, makes and writes; always 0600, also when an older
 * file had other bits; a file that is not JSON stops the start naming it.
 */
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { credentialsFileOf, settleCredentials } from '../../src/startup/credentials.ts';
import { makeTempDir, removeDir } from '../support/server.ts';

const DEMO = { uid: '1000000001', apiKey: 'bg_key', secretKey: 'secret', passphrase: 'pass' };

function settings(dataDir: string, overrides: Partial<Parameters<typeof settleCredentials>[0]> = {}) {
  return {
    dataDir,
    operatorTokenFromEnv: undefined,
    baseUrl: 'http://127.0.0.1:8080',
    freshStore: false,
    seedDemo: null,
    ...overrides,
  };
}

test('settleCredentials when the store is new seeds the demo key and flags what it made', async (t) => {
  const dir = makeTempDir('bourse-credentials-');
  t.after(() => removeDir(dir));
  const first = await settleCredentials(settings(dir, { freshStore: true, seedDemo: async () => DEMO }));
  assert.deepEqual(first.created, { demoKey: true, operatorToken: true });
  const file = credentialsFileOf(dir);
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), {
    baseUrl: 'http://127.0.0.1:8080',
    ...DEMO,
    operatorToken: first.credentials.operatorToken,
  });
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const second = await settleCredentials(settings(dir));
  assert.deepEqual(second.created, { demoKey: false, operatorToken: false });
  assert.equal(second.operatorTokenFrom, 'file');
  assert.deepEqual(second.credentials, first.credentials);
});

test('settleCredentials when the file exists with other bits makes it 0600', async (t) => {
  const dir = makeTempDir('bourse-credentials-');
  t.after(() => removeDir(dir));
  await settleCredentials(settings(dir));
  const file = credentialsFileOf(dir);
  chmodSync(file, 0o644);
  await settleCredentials(settings(dir));
  assert.equal(statSync(file).mode & 0o777, 0o600, 'unchanged content: the mode alone is fixed');
  chmodSync(file, 0o644);
  await settleCredentials(settings(dir, { baseUrl: 'http://127.0.0.1:9090' }));
  assert.equal(statSync(file).mode & 0o777, 0o600, 'rewritten: 0600 too');
});

test('settleCredentials when the store is new forgets a demo key of the store that is gone', async (t) => {
  const dir = makeTempDir('bourse-credentials-');
  t.after(() => removeDir(dir));
  writeFileSync(credentialsFileOf(dir), JSON.stringify({ ...DEMO, operatorToken: 'kept' }));
  const settled = await settleCredentials(settings(dir, { freshStore: true }));
  assert.deepEqual(settled.credentials, { operatorToken: 'kept', baseUrl: 'http://127.0.0.1:8080' });
});

test('settleCredentials when the file is not JSON stops naming it', async (t) => {
  const dir = makeTempDir('bourse-credentials-');
  t.after(() => removeDir(dir));
  writeFileSync(credentialsFileOf(dir), '{"operatorToken":');
  await assert.rejects(
    settleCredentials(settings(dir)),
    /credentials\.json is not a JSON object: repair it, or remove it/,
  );
});
