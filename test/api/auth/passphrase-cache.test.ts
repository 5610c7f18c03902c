/**
 * The verified-passphrase cache: it answers only for the passphrase verified, for the key as
 * it stood then (a changed passphrase hash or secret, i.e. a modified key, forgets it), and it
 * holds neither the passphrase nor a plain digest of it.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { inspect } from 'node:util';
import type { ApiKeyRecord } from '../../../src/domain/account.ts';
import { PassphraseCache } from '../../../src/api/auth/passphrase-cache.ts';

const key = (changes: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
  apiKey: 'bg_key',
  uid: '1',
  secretCipher: 'sealed-1',
  passphraseHash: 'salt:hash-1',
  permissions: [],
  ipList: [],
  label: '',
  createdTimeMs: 0,
  ...changes,
});

test('PassphraseCache when a passphrase was verified answers for it and no other', () => {
  const cache = new PassphraseCache();
  assert.equal(cache.has(key(), 'right-one'), false);
  cache.remember(key(), 'right-one');
  assert.equal(cache.has(key(), 'right-one'), true);
  assert.equal(cache.has(key(), 'wrong-one'), false);
  assert.equal(cache.has(key({ apiKey: 'bg_other' }), 'right-one'), false);
});

test('PassphraseCache when the key was modified forgets what it verified', () => {
  const cache = new PassphraseCache();
  cache.remember(key(), 'right-one');
  assert.equal(cache.has(key({ passphraseHash: 'salt:hash-2' }), 'right-one'), false);
  assert.equal(cache.has(key(), 'right-one'), false, 'the entry is gone, not only hidden');
  cache.remember(key(), 'right-one');
  assert.equal(cache.has(key({ secretCipher: 'sealed-2' }), 'right-one'), false);
});

test('PassphraseCache when inspected shows neither the passphrase nor its plain digest', () => {
  const cache = new PassphraseCache();
  const passphrase = 'Sup3rSecretPass';
  cache.remember(key(), passphrase);
  const dump = inspect(cache, { showHidden: true, depth: 10, maxArrayLength: null });
  assert.equal(dump.includes(passphrase), false);
  for (const algorithm of ['sha256', 'sha1', 'md5']) {
    const digest = createHash(algorithm).update(passphrase).digest();
    assert.equal(dump.includes(digest.toString('hex')), false, algorithm);
    assert.equal(dump.includes(digest.toString('base64')), false, algorithm);
  }
});
