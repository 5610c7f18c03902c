import assert from 'node:assert/strict';
import { test } from 'node:test';
import { amend, type AmendRequest } from '../../../src/engine/matching/amend.ts';
import type { OrderBook, OrderBookFactory } from '../../../src/engine/matching/order-book.ts';
import { bookImplementations, quoteOf, restingOrder } from './support.ts';

function bookWithQueue(createBook: OrderBookFactory): OrderBook {
  const book = createBook();
  book.add(restingOrder({ orderId: 'first', priceTicks: 100, remainingLots: 5, ownerId: 'alice' }));
  book.add(restingOrder({ orderId: 'second', priceTicks: 100, remainingLots: 5, ownerId: 'bob' }));
  book.add(
    restingOrder({ orderId: 'ask', side: 'sell', priceTicks: 103, remainingLots: 2, ownerId: 'carol' }),
  );
  return book;
}

function request(overrides: Partial<AmendRequest>): AmendRequest {
  return {
    orderId: 'first',
    priceTicks: 100,
    remainingLots: 5,
    sequence: 900,
    timeInForce: 'gtc',
    quoteOf,
    ...overrides,
  };
}

function queue(book: OrderBook): string[] {
  return [...book.iterate('buy')].map((order) => order.orderId);
}

for (const { name, create } of bookImplementations) {
  test(`${name}: amend when size decreases at the same price keeps priority`, () => {
    const book = bookWithQueue(create);
    const result = amend(book, request({ remainingLots: 2 }));
    assert.equal(result.outcome, 'reduced_in_place');
    assert.deepEqual(queue(book), ['first', 'second']);
    assert.equal(book.get('first')?.remainingLots, 2);
    assert.notEqual(book.get('first')?.sequence, 900);
  });

  test(`${name}: amend when size increases re-queues at the back with the new sequence`, () => {
    const book = bookWithQueue(create);
    const result = amend(book, request({ remainingLots: 6 }));
    assert.equal(result.outcome, 'requeued');
    assert.deepEqual(queue(book), ['second', 'first']);
    assert.equal(book.get('first')?.sequence, 900);
    assert.equal(book.get('first')?.ownerId, 'alice');
  });

  test(`${name}: amend when price changes re-queues at the new level`, () => {
    const book = bookWithQueue(create);
    const result = amend(book, request({ orderId: 'second', priceTicks: 101, remainingLots: 1 }));
    assert.equal(result.outcome, 'requeued');
    assert.equal(book.best('buy')?.orderId, 'second');
    assert.equal(book.best('buy')?.remainingLots, 1);
  });

  test(`${name}: amend when the new price crosses trades as a taker`, () => {
    const book = bookWithQueue(create);
    const result = amend(book, request({ priceTicks: 103, remainingLots: 3 }));
    assert.ok(result.outcome === 'requeued');
    assert.equal(result.previousRemainingLots, 5);
    assert.equal(result.previousPriceTicks, 100);
    assert.deepEqual(
      result.match.fills.map((fill) => [fill.makerOrderId, fill.lots]),
      [['ask', 2]],
    );
    assert.equal(result.match.takerRestingLots, 1);
    assert.equal(book.best('buy')?.orderId, 'first');
    assert.equal(book.bestPriceTicks('sell'), undefined);
  });

  test(`${name}: amend when a post_only order would cross is rejected and left as it was`, () => {
    const book = bookWithQueue(create);
    const result = amend(book, request({ priceTicks: 104, timeInForce: 'post_only' }));
    assert.deepEqual(result, { outcome: 'rejected', reason: 'post_only_would_take' });
    assert.deepEqual(queue(book), ['first', 'second']);
    assert.equal(book.get('first')?.priceTicks, 100);
  });

  test(`${name}: amend when nothing changes or the order is missing`, () => {
    const book = bookWithQueue(create);
    assert.equal(amend(book, request({})).outcome, 'unchanged');
    assert.deepEqual(amend(book, request({ orderId: 'gone' })), { outcome: 'not_found' });
    assert.throws(() => amend(book, request({ remainingLots: 0 })));
    assert.deepEqual(queue(book), ['first', 'second']);
  });
}
