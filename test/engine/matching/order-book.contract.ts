// Contract suite for OrderBook: every implementation must pass it unchanged.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stateHash } from '../../../src/engine/matching/book-hash.ts';
import type { OrderBook, OrderBookFactory } from '../../../src/engine/matching/order-book.ts';
import type { Side } from '../../../src/engine/matching/types.ts';
import { restingOrder } from './support.ts';

function ids(book: OrderBook, side: Side): string[] {
  return [...book.iterate(side)].map((order) => order.orderId);
}

export function orderBookContract(name: string, createBook: OrderBookFactory): void {
  test(`${name}: get when the order was added returns its fields`, () => {
    const book = createBook();
    const order = restingOrder({
      orderId: 'a',
      side: 'sell',
      priceTicks: 105,
      remainingLots: 3,
      stpMode: 'cancel_maker',
    });
    book.add(order);
    assert.deepEqual({ ...book.get('a') }, order);
    assert.equal(book.orderCount, 1);
    assert.equal(book.get('missing'), undefined);
  });

  test(`${name}: add when the caller later mutates its object keeps the book's copy`, () => {
    const book = createBook();
    const order = restingOrder({ orderId: 'a', remainingLots: 3 });
    book.add(order);
    order.remainingLots = 99;
    assert.equal(book.get('a')?.remainingLots, 3);
  });

  test(`${name}: add when the id is already resting throws`, () => {
    const book = createBook();
    book.add(restingOrder({ orderId: 'a' }));
    assert.throws(() => book.add(restingOrder({ orderId: 'a', side: 'sell', priceTicks: 200 })));
    assert.equal(book.orderCount, 1);
  });

  test(`${name}: add when quantity or price is not a positive safe integer throws`, () => {
    const book = createBook();
    assert.throws(() => book.add(restingOrder({ orderId: 'a', remainingLots: 0 })));
    assert.throws(() => book.add(restingOrder({ orderId: 'b', remainingLots: 1.5 })));
    assert.throws(() => book.add(restingOrder({ orderId: 'c', priceTicks: 100.5 })));
    assert.equal(book.orderCount, 0);
  });

  test(`${name}: best when bids and asks rest at several prices is highest bid and lowest ask`, () => {
    const book = createBook();
    for (const [orderId, side, priceTicks] of [
      ['b1', 'buy', 98],
      ['b2', 'buy', 99],
      ['b3', 'buy', 97],
      ['a1', 'sell', 102],
      ['a2', 'sell', 101],
      ['a3', 'sell', 103],
    ] as const) {
      book.add(restingOrder({ orderId, side, priceTicks }));
    }
    assert.equal(book.best('buy')?.orderId, 'b2');
    assert.equal(book.best('sell')?.orderId, 'a2');
    assert.equal(book.bestPriceTicks('buy'), 99);
    assert.equal(book.bestPriceTicks('sell'), 101);
  });

  test(`${name}: best when the book is empty is undefined`, () => {
    const book = createBook();
    assert.equal(book.best('buy'), undefined);
    assert.equal(book.bestPriceTicks('sell'), undefined);
    assert.deepEqual(book.depth('buy', 5), []);
    assert.deepEqual([...book.iterate('sell')], []);
  });

  test(`${name}: iterate when levels hold several orders goes best first then oldest first`, () => {
    const book = createBook();
    book.add(restingOrder({ orderId: 'x1', side: 'sell', priceTicks: 101 }));
    book.add(restingOrder({ orderId: 'y1', side: 'sell', priceTicks: 100 }));
    book.add(restingOrder({ orderId: 'x2', side: 'sell', priceTicks: 101 }));
    book.add(restingOrder({ orderId: 'y2', side: 'sell', priceTicks: 100 }));
    book.add(restingOrder({ orderId: 'z1', side: 'sell', priceTicks: 150 }));
    assert.deepEqual(ids(book, 'sell'), ['y1', 'y2', 'x1', 'x2', 'z1']);
    assert.deepEqual(ids(book, 'buy'), []);
  });

  test(`${name}: remove when the order is at head, middle or tail keeps the others in order`, () => {
    const book = createBook();
    for (const orderId of ['o1', 'o2', 'o3', 'o4', 'o5']) book.add(restingOrder({ orderId, priceTicks: 50 }));
    assert.equal(book.remove('o3')?.orderId, 'o3');
    assert.equal(book.remove('o1')?.orderId, 'o1');
    assert.equal(book.remove('o5')?.orderId, 'o5');
    assert.deepEqual(ids(book, 'buy'), ['o2', 'o4']);
    assert.equal(book.orderCount, 2);
    assert.deepEqual(book.depth('buy', 10), [{ priceTicks: 50, lots: 2, orders: 2 }]);
  });

  test(`${name}: remove when the order is missing returns undefined`, () => {
    const book = createBook();
    book.add(restingOrder({ orderId: 'a' }));
    assert.equal(book.remove('b'), undefined);
    assert.equal(book.remove('a')?.orderId, 'a');
    assert.equal(book.remove('a'), undefined);
    assert.equal(book.orderCount, 0);
  });

  test(`${name}: remove when it empties the best level moves best to the next level`, () => {
    const book = createBook();
    book.add(restingOrder({ orderId: 'a', side: 'sell', priceTicks: 100 }));
    book.add(restingOrder({ orderId: 'b', side: 'sell', priceTicks: 103 }));
    book.remove('a');
    assert.equal(book.bestPriceTicks('sell'), 103);
    book.add(restingOrder({ orderId: 'c', side: 'sell', priceTicks: 100 }));
    assert.deepEqual(ids(book, 'sell'), ['c', 'b']);
  });

  test(`${name}: remove then add when re-queued puts the order at the tail`, () => {
    const book = createBook();
    for (const orderId of ['a', 'b', 'c']) book.add(restingOrder({ orderId, priceTicks: 10 }));
    const removed = book.remove('a');
    assert.ok(removed);
    book.add({ ...removed, sequence: 99 });
    assert.deepEqual(ids(book, 'buy'), ['b', 'c', 'a']);
  });

  test(`${name}: reduce when partial keeps priority and updates depth`, () => {
    const book = createBook();
    book.add(restingOrder({ orderId: 'a', priceTicks: 10, remainingLots: 5 }));
    book.add(restingOrder({ orderId: 'b', priceTicks: 10, remainingLots: 2 }));
    assert.equal(book.reduce('a', 3), 2);
    assert.deepEqual(ids(book, 'buy'), ['a', 'b']);
    assert.equal(book.get('a')?.remainingLots, 2);
    assert.deepEqual(book.depth('buy', 1), [{ priceTicks: 10, lots: 4, orders: 2 }]);
  });

  test(`${name}: reduce when it reaches zero removes the order`, () => {
    const book = createBook();
    book.add(restingOrder({ orderId: 'a', priceTicks: 10, remainingLots: 5 }));
    assert.equal(book.reduce('a', 5), 0);
    assert.equal(book.get('a'), undefined);
    assert.equal(book.orderCount, 0);
    assert.deepEqual(book.depth('buy', 5), []);
  });

  test(`${name}: reduce when the order is missing or the amount is invalid`, () => {
    const book = createBook();
    book.add(restingOrder({ orderId: 'a', remainingLots: 5 }));
    assert.equal(book.reduce('missing', 1), undefined);
    assert.throws(() => book.reduce('a', 6));
    assert.throws(() => book.reduce('a', 0));
    assert.throws(() => book.reduce('a', 1.5));
    assert.equal(book.get('a')?.remainingLots, 5);
  });

  test(`${name}: reduceInPlace when smaller keeps priority`, () => {
    const book = createBook();
    book.add(restingOrder({ orderId: 'a', side: 'sell', priceTicks: 10, remainingLots: 5 }));
    book.add(restingOrder({ orderId: 'b', side: 'sell', priceTicks: 10, remainingLots: 5 }));
    assert.equal(book.reduceInPlace('a', 2)?.remainingLots, 2);
    assert.deepEqual(ids(book, 'sell'), ['a', 'b']);
    assert.deepEqual(book.depth('sell', 1), [{ priceTicks: 10, lots: 7, orders: 2 }]);
  });

  test(`${name}: reduceInPlace when larger, zero or missing`, () => {
    const book = createBook();
    book.add(restingOrder({ orderId: 'a', remainingLots: 5 }));
    assert.throws(() => book.reduceInPlace('a', 6));
    assert.throws(() => book.reduceInPlace('a', 0));
    assert.equal(book.reduceInPlace('missing', 1), undefined);
    assert.equal(book.reduceInPlace('a', 5)?.remainingLots, 5);
  });

  test(`${name}: requeue when the price changes moves the order to the tail of the new level`, () => {
    const book = createBook();
    book.add(restingOrder({ orderId: 'a', priceTicks: 10, remainingLots: 2 }));
    book.add(restingOrder({ orderId: 'b', priceTicks: 11 }));
    book.add(restingOrder({ orderId: 'c', priceTicks: 11 }));
    const moved = book.requeue('a', 11, 4, 77);
    assert.deepEqual(
      { ...moved },
      {
        ...restingOrder({ orderId: 'a', priceTicks: 11, remainingLots: 4 }),
        ownerId: 'owner-a',
        sequence: 77,
      },
    );
    assert.deepEqual(ids(book, 'buy'), ['b', 'c', 'a']);
    assert.deepEqual(book.depth('buy', 5), [{ priceTicks: 11, lots: 6, orders: 3 }]);
  });

  test(`${name}: requeue when the price is unchanged loses priority within the level`, () => {
    const book = createBook();
    for (const orderId of ['a', 'b']) book.add(restingOrder({ orderId, side: 'sell', priceTicks: 10 }));
    book.requeue('a', 10, 1, 50);
    assert.deepEqual(ids(book, 'sell'), ['b', 'a']);
  });

  test(`${name}: requeue when missing or invalid leaves the book unchanged`, () => {
    const book = createBook();
    book.add(restingOrder({ orderId: 'a', priceTicks: 10, remainingLots: 2 }));
    book.add(restingOrder({ orderId: 'b', priceTicks: 10 }));
    const hashBefore = stateHash(book);
    assert.equal(book.requeue('missing', 10, 1, 5), undefined);
    assert.throws(() => book.requeue('a', 10, 0, 5));
    assert.throws(() => book.requeue('a', 10.5, 1, 5));
    assert.equal(stateHash(book), hashBefore);
  });

  test(`${name}: depth when more levels than asked is truncated best first`, () => {
    const book = createBook();
    for (let index = 0; index < 6; index += 1) {
      book.add(
        restingOrder({ orderId: `b${index}`, priceTicks: 90 + (index % 3), remainingLots: index + 1 }),
      );
    }
    assert.deepEqual(book.depth('buy', 2), [
      { priceTicks: 92, lots: 3 + 6, orders: 2 },
      { priceTicks: 91, lots: 2 + 5, orders: 2 },
    ]);
    assert.deepEqual(book.depth('buy', 0), []);
  });

  test(`${name}: restingOrders when re-added to a new book rebuilds the same book`, () => {
    const book = createBook();
    book.add(restingOrder({ orderId: 'a1', side: 'sell', priceTicks: 12 }));
    book.add(restingOrder({ orderId: 'b1', side: 'buy', priceTicks: 8 }));
    book.add(restingOrder({ orderId: 'a2', side: 'sell', priceTicks: 11 }));
    book.add(restingOrder({ orderId: 'b2', side: 'buy', priceTicks: 9 }));
    book.add(restingOrder({ orderId: 'b3', side: 'buy', priceTicks: 9 }));
    const snapshot = book.restingOrders();
    assert.deepEqual(
      snapshot.map((order) => order.orderId),
      ['b2', 'b3', 'b1', 'a2', 'a1'],
    );
    const rebuilt = createBook();
    for (const order of snapshot) rebuilt.add(order);
    assert.equal(stateHash(rebuilt), stateHash(book));
    assert.deepEqual(rebuilt.restingOrders(), snapshot);
  });

  test(`${name}: add when prices arrive in random order keeps levels sorted`, () => {
    const book = createBook();
    const prices = [57, 3, 99, 42, 42, 8, 77, 1, 64, 23, 99, 15, 50];
    prices.forEach((priceTicks, index) => {
      book.add(restingOrder({ orderId: `b${index}`, side: 'buy', priceTicks }));
      book.add(restingOrder({ orderId: `a${index}`, side: 'sell', priceTicks: priceTicks + 1000 }));
    });
    const distinct = [...new Set(prices)];
    assert.deepEqual(
      book.depth('buy', 100).map((level) => level.priceTicks),
      [...distinct].sort((left, right) => right - left),
    );
    assert.deepEqual(
      book.depth('sell', 100).map((level) => level.priceTicks),
      distinct.map((price) => price + 1000).sort((left, right) => left - right),
    );
    for (const [index] of prices.entries()) if (index % 2 === 0) book.remove(`b${index}`);
    const remaining = [...new Set(prices.filter((_, index) => index % 2 === 1))];
    assert.deepEqual(
      book.depth('buy', 100).map((level) => level.priceTicks),
      remaining.sort((left, right) => right - left),
    );
  });

  test(`${name}: add when prices empty and refill, past a thousand levels, keeps levels and totals`, () => {
    const book = createBook();
    // Each round empties 300 levels (more than a side keeps empty) and refills some of them.
    let next = 0;
    for (let round = 0; round < 4; round += 1) {
      for (let price = 1; price <= 300; price += 1) {
        book.add(restingOrder({ orderId: `o${next++}`, side: 'sell', priceTicks: price + round * 200 }));
      }
      for (const order of [...book.iterate('sell')]) book.remove(order.orderId);
      assert.equal(book.bestPriceTicks('sell'), undefined);
      assert.deepEqual(book.depth('sell', 10), []);
    }
    for (const price of [450, 5, 700, 450, 999]) {
      book.add(restingOrder({ orderId: `o${next++}`, side: 'sell', priceTicks: price, remainingLots: 2 }));
    }
    assert.deepEqual(book.depth('sell', 10), [
      { priceTicks: 5, lots: 2, orders: 1 },
      { priceTicks: 450, lots: 4, orders: 2 },
      { priceTicks: 700, lots: 2, orders: 1 },
      { priceTicks: 999, lots: 2, orders: 1 },
    ]);
    assert.equal(book.orderCount, 5);
  });
}
