import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Fnv1a64, stateHash } from '../../../src/engine/matching/book-hash.ts';
import { bookImplementations, restingOrder } from './support.ts';

function referenceFnv1a64(bytes: number[]): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of bytes) hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
  return hash.toString(16).padStart(16, '0');
}

test('Fnv1a64 when fed bytes matches the published FNV-1a 64 values', () => {
  const empty = new Fnv1a64();
  assert.equal(empty.hex(), 'cbf29ce484222325');
  const letter = new Fnv1a64();
  letter.byte(0x61);
  assert.equal(letter.hex(), 'af63dc4c8601ec8c');
  const bytes = Array.from({ length: 300 }, (_, index) => (index * 37 + 11) & 0xff);
  const hash = new Fnv1a64();
  for (const byte of bytes) hash.byte(byte);
  assert.equal(hash.hex(), referenceFnv1a64(bytes));
});

for (const { name, create } of bookImplementations) {
  test(`${name}: stateHash when books hold the same orders in the same queue is equal`, () => {
    const left = create();
    const right = create();
    for (const book of [left, right]) {
      book.add(restingOrder({ orderId: 'a', sequence: 1 }));
      book.add(restingOrder({ orderId: 'b', sequence: 2 }));
    }
    assert.equal(stateHash(left), stateHash(right));
    assert.match(stateHash(left), /^[0-9a-f]{16}$/);
  });

  test(`${name}: stateHash when queue order, lots or owner differ is different`, () => {
    const base = () => {
      const book = create();
      book.add(restingOrder({ orderId: 'a', sequence: 1 }));
      book.add(restingOrder({ orderId: 'b', sequence: 2, remainingLots: 3 }));
      return book;
    };
    const hashes = new Set<string>([stateHash(base())]);
    const reordered = create();
    reordered.add(restingOrder({ orderId: 'b', sequence: 2, remainingLots: 3 }));
    reordered.add(restingOrder({ orderId: 'a', sequence: 1 }));
    hashes.add(stateHash(reordered));
    const reduced = base();
    reduced.reduce('b', 1);
    hashes.add(stateHash(reduced));
    const otherOwner = create();
    otherOwner.add(restingOrder({ orderId: 'a', sequence: 1, ownerId: 'someone-else' }));
    otherOwner.add(restingOrder({ orderId: 'b', sequence: 2, remainingLots: 3 }));
    hashes.add(stateHash(otherOwner));
    hashes.add(stateHash(create()));
    assert.equal(hashes.size, 5);
  });
}
