/**
 * HMAC-SHA256 from two one-shot hashes (src/api/auth/hmac-key.ts) gives createHmac's bytes for
 * every key and message: keys that take the one-shot path (ASCII, at most one block) and keys
 * that fall back to createHmac (longer, non-ASCII), messages empty, long, and non-ASCII.
 */
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { HmacKey, sameText } from '../../../src/api/auth/hmac-key.ts';
import { Random } from '../../support/random.ts';

function expected(key: string, message: string): string {
  return createHmac('sha256', key).update(message).digest('base64');
}

test('HmacKey when keys and messages vary gives the same digest as createHmac', () => {
  const keys = [
    '',
    'k',
    randomBytes(32).toString('hex'),
    randomBytes(48).toString('base64'),
    'x'.repeat(63),
    'x'.repeat(64),
    'x'.repeat(65),
    randomBytes(40).toString('hex'),
    'clé-é',
    '\u0000\u007f',
    '龙虾',
  ];
  const messages = [
    '',
    'a',
    '1700000000000POST/api/v3/trade/place-batch[{"a":"b"}]',
    'é€😀',
    'x'.repeat(5000),
  ];
  for (const key of keys) {
    const hmac = new HmacKey(key);
    for (const message of messages)
      assert.equal(hmac.base64(message), expected(key, message), `${key} ${message.slice(0, 20)}`);
  }
});

test('HmacKey when messages are random text gives the same digest as createHmac', () => {
  const random = new Random(25);
  const key = randomBytes(32).toString('hex');
  const hmac = new HmacKey(key);
  for (let round = 0; round < 500; round += 1) {
    const length = Math.floor(random.next() * 300);
    let message = '';
    for (let index = 0; index < length; index += 1) {
      // Mostly ASCII, some Latin-1, some beyond (surrogate pairs included).
      const pick = random.next();
      message += String.fromCodePoint(
        pick < 0.8
          ? Math.floor(random.next() * 128)
          : pick < 0.9
            ? 128 + Math.floor(random.next() * 128)
            : 0x1f600,
      );
    }
    assert.equal(hmac.base64(message), expected(key, message));
  }
});

test('sameText when texts differ anywhere or in length answers false', () => {
  assert.equal(sameText('abc', 'abc'), true);
  assert.equal(sameText('', ''), true);
  assert.equal(sameText('abc', 'abd'), false);
  assert.equal(sameText('abc', 'ab'), false);
  assert.equal(sameText('xbc', 'abc'), false);
});
