/**
 * Safe integers between Number and bigint (domain/safe-integer.ts): the typed-array
 * conversions give exactly `BigInt(n)` and `Number(b)` on the safe range, around every
 * 32-bit boundary and at both ends, and step aside (BigInt's own answer or error, NaN) outside.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bigIntOfSafe, numberOfSafe } from '../../src/domain/safe-integer.ts';

const LIMIT = Number.MAX_SAFE_INTEGER;
const EDGES = [
  0,
  1,
  2,
  99,
  100_000_000,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32 - 1,
  2 ** 32,
  2 ** 32 + 1,
  2 ** 40 + 3,
  6e12 + 7,
  2 ** 52,
  2 ** 52 + 1,
  LIMIT - 1,
  LIMIT,
];

/** A deterministic spread over the whole safe range (no Math.random in tests that must replay). */
function spread(count: number): number[] {
  const values: number[] = [];
  let seed = 0x2545f491;
  for (let index = 0; index < count; index += 1) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const high = seed % 2 ** 21;
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    values.push(high * 2 ** 32 + seed);
  }
  return values;
}

test('bigIntOfSafe when given a safe integer is BigInt of it, either sign', () => {
  for (const value of [...EDGES, ...spread(10_000)]) {
    assert.equal(bigIntOfSafe(value), BigInt(value), String(value));
    assert.equal(bigIntOfSafe(-value), BigInt(-value), String(-value));
  }
  assert.equal(bigIntOfSafe(-0), 0n);
});

test('bigIntOfSafe when given no safe integer is BigInt itself, errors included', () => {
  for (const value of [2 ** 53, 2 ** 53 + 2, 2 ** 64, 1e300, -(2 ** 60)]) {
    assert.equal(bigIntOfSafe(value), BigInt(value), String(value));
  }
  for (const value of [0.5, -1.25, 1e15 + 0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.throws(() => bigIntOfSafe(value), RangeError, String(value));
  }
});

test('numberOfSafe when given a safe bigint is Number of it, either sign', () => {
  for (const value of [...EDGES, ...spread(10_000)]) {
    assert.equal(numberOfSafe(BigInt(value)), value, String(value));
    assert.equal(numberOfSafe(-BigInt(value)), Number(-BigInt(value)), String(-value));
  }
});

test('numberOfSafe when given a bigint beyond 2^53 - 1 is NaN', () => {
  const limit = BigInt(LIMIT);
  for (const value of [limit + 1n, -limit - 1n, 2n ** 64n, 2n ** 64n + 5n, -(2n ** 70n)]) {
    assert.ok(Number.isNaN(numberOfSafe(value)), String(value));
  }
});
