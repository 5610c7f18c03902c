import assert from 'node:assert/strict';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { test } from 'node:test';
import { bookChecksum, crc32 } from '../../../src/api/ws/checksum.ts';

test('crc32 when given the standard check string is 0xCBF43926 as a signed integer', () => {
  assert.equal(crc32('123456789'), 0xcbf43926 | 0);
  assert.equal(crc32('123456789'), -873187034);
  assert.equal(crc32(''), 0);
});

test('crc32 when compared with zlib agrees on UTF-8 text', () => {
  for (const text of ['60000:0.01', 'a:b:c', 'µ€x', '3366.1:7.0366:3366.8:9.8']) {
    assert.equal(crc32(text), zlibCrc32(text) | 0);
  }
});

test('bookChecksum when sides differ in length interleaves bid then ask and skips the shorter side', () => {
  const bids: [string, string][] = [
    ['3366.1', '7.0366'],
    ['3366', '0.1'],
  ];
  const asks: [string, string][] = [['3366.8', '9.8']];
  assert.equal(bookChecksum(bids, asks), crc32('3366.1:7.0366:3366.8:9.8:3366:0.1'));
});

test('bookChecksum when a side has more than 25 levels uses the first 25 only', () => {
  const bids = Array.from({ length: 30 }, (_, index): [string, string] => [String(100 - index), '1']);
  assert.equal(bookChecksum(bids, []), bookChecksum(bids.slice(0, 25), []));
});
