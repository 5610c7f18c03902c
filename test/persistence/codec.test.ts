import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decode, encode } from '../../src/persistence/codec.ts';

test('codec when a value holds bigints and maps round-trips them exactly', () => {
  const value = {
    amount: 10n ** 20n + 1n,
    negative: -5n,
    balances: new Map<string, bigint>([['u|spot|USDT', 123n]]),
    nested: [{ deep: new Map([['k', [1n, 'x']]]) }],
  };
  assert.deepEqual(decode(encode(value)), value);
});

test('codec when a value has no tags stays plain JSON, "$" in texts included', () => {
  const value = { type: 'PlaceOrders', clientOid: 'a"$b', price: '$100', items: [{ q: '1' }] };
  assert.equal(encode(value), JSON.stringify(value));
  assert.deepEqual(decode(encode(value)), value);
});

test('codec when a plain object only looks like a tag keeps it as an object', () => {
  const value = { a: { $bigint: '12', other: 1 }, b: { $map: [], other: 2 } };
  assert.deepEqual(decode(encode(value)), value);
});
