/** The console's order book (console/src/book.ts) kept from `books` snapshots and updates. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Book } from '../../console/src/book.ts';

test('Book.top orders each side from the best price when levels arrive unordered', () => {
  const book = new Book();
  book.apply('snapshot', {
    bids: [
      ['99.5', '1'],
      ['100', '2'],
      ['9.75', '3'],
    ],
    asks: [
      ['101', '1'],
      ['100.5', '4'],
      ['1000', '5'],
    ],
  });
  assert.deepEqual(book.top(2), {
    bids: [
      ['100', '2'],
      ['99.5', '1'],
    ],
    asks: [
      ['100.5', '4'],
      ['101', '1'],
    ],
  });
});

test('Book.apply removes a level when an update sizes it 0 and replaces all on a snapshot', () => {
  const book = new Book();
  book.apply('snapshot', { bids: [['100', '2']], asks: [['101', '1']] });
  book.apply('update', {
    bids: [
      ['100', '0'],
      ['99', '3'],
    ],
    asks: [['101', '0.5']],
  });
  assert.deepEqual(book.top(5), { bids: [['99', '3']], asks: [['101', '0.5']] });
  book.apply('snapshot', { bids: [], asks: [['102', '7']] });
  assert.deepEqual(book.top(5), { bids: [], asks: [['102', '7']] });
});
