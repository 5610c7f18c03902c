/**
 * The server key against the store: it must open the sealed API secrets the store holds. A
 * key that opens none is refused with what to do, naming where the key came from; a store
 * with no secrets takes any key; a new key is saved only when asked, after the check.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ApiKeyRecord } from '../../src/domain/account.ts';
import { SecretBox } from '../../src/security/secrets.ts';
import { checkServerKey, loadServerKey, saveNewServerKey } from '../../src/startup/server-key.ts';
import { makeTempDir, removeDir } from '../support/server.ts';

const KEY_A = 'aa'.repeat(32);
const KEY_B = 'bb'.repeat(32);

function sealedUnder(keyHex: string, count: number): ApiKeyRecord[] {
  const box = new SecretBox(Buffer.from(keyHex, 'hex'));
  return Array.from({ length: count }, (_, index) => ({
    apiKey: `bg_${index}`,
    uid: '1',
    secretCipher: box.seal(`secret-${index}`),
    passphraseHash: 'x:y',
    permissions: [],
    ipList: [],
    label: '',
    createdTimeMs: 0,
  }));
}

test('checkServerKey when the key opens no stored secret refuses naming its source and the fix', (t) => {
  const dir = makeTempDir('bourse-key-');
  t.after(() => removeDir(dir));
  const records = sealedUnder(KEY_A, 2);
  const fromEnv = loadServerKey(dir, KEY_B);
  assert.throws(
    () => checkServerKey(new SecretBox(fromEnv.key), records, fromEnv, 'SQLite /data/bourse.db'),
    /^Error: BOURSE_SERVER_KEY does not match the store: SQLite \/data\/bourse\.db holds 2 API key secrets sealed under another server key\. Set BOURSE_SERVER_KEY to the key the store was created with, or unset it to use .*server\.key\. If that key is lost/,
  );
  writeFileSync(join(dir, 'server.key'), KEY_B);
  const fromFile = loadServerKey(dir, undefined);
  assert.throws(
    () => checkServerKey(new SecretBox(fromFile.key), records, fromFile, 'the store'),
    /the server key in .*server\.key does not match the store: .*Put back the server\.key the store was created with/,
  );
});

test('checkServerKey when the key opens the secrets passes and counts those it cannot open', () => {
  const serverKey = loadServerKey('/nonexistent', KEY_A);
  const box = new SecretBox(serverKey.key);
  assert.deepEqual(checkServerKey(box, sealedUnder(KEY_A, 2), serverKey, 'store'), { unopened: 0 });
  const mixed = [...sealedUnder(KEY_A, 1), ...sealedUnder(KEY_B, 2)];
  assert.deepEqual(checkServerKey(box, mixed, serverKey, 'store'), { unopened: 2 });
  assert.deepEqual(checkServerKey(box, [], serverKey, 'store'), { unopened: 0 }, 'no secrets: any key');
});

test('loadServerKey when the data directory has none makes one and saves it only when asked', (t) => {
  const dir = makeTempDir('bourse-key-');
  t.after(() => removeDir(dir));
  const made = loadServerKey(dir, undefined);
  assert.equal(made.source, 'new');
  assert.equal(existsSync(made.file), false, 'not written before the store accepted it');
  saveNewServerKey(made);
  assert.equal(readFileSync(made.file, 'utf8'), made.key.toString('hex'));
  assert.equal(loadServerKey(dir, undefined).source, 'file');
  writeFileSync(made.file, 'not a key');
  assert.throws(() => loadServerKey(dir, undefined), /server\.key is not a server key \(64 hex digits\)/);
});
