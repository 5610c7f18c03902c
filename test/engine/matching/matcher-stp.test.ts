import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stateHash } from '../../../src/engine/matching/book-hash.ts';
import { match } from '../../../src/engine/matching/matcher.ts';
import { bookWith, fillSummary, type Seed } from './matcher-fixtures.ts';
import { bookImplementations, limitTaker, marketTaker } from './support.ts';

for (const { name, create } of bookImplementations) {
  test(`${name}: match when fok depth includes own orders counts them per the stp mode`, () => {
    const seeds: Seed[] = [
      { orderId: 'own', side: 'sell', priceTicks: 100, remainingLots: 3, ownerId: 'taker' },
      { orderId: 'other', side: 'sell', priceTicks: 101, remainingLots: 3 },
    ];
    const fok = { orderId: 't', priceTicks: 101, lots: 4, timeInForce: 'fok' } as const;
    const withNone = match(bookWith(create, seeds), limitTaker({ ...fok, stpMode: 'none' }));
    assert.equal(withNone.takerFilledLots, 4);
    for (const stpMode of ['cancel_taker', 'cancel_both', 'cancel_maker'] as const) {
      const book = bookWith(create, seeds);
      const hashBefore = stateHash(book);
      const result = match(book, limitTaker({ ...fok, stpMode }));
      assert.equal(result.takerCancelledReason, 'fok_unfillable', stpMode);
      assert.equal(result.makersCancelled.length, 0, stpMode);
      assert.equal(stateHash(book), hashBefore, stpMode);
    }
    const book = bookWith(create, seeds);
    const result = match(book, limitTaker({ ...fok, lots: 3, stpMode: 'cancel_maker' }));
    assert.deepEqual(fillSummary(result), [['other', 101, 3]]);
    assert.deepEqual(result.makersCancelled, [
      { orderId: 'own', ownerId: 'taker', remainingLots: 3, reason: 'stp' },
    ]);
  });

  test(`${name}: match when post_only would only cross an own order still rejects it`, () => {
    const book = bookWith(create, [{ orderId: 'own', side: 'sell', priceTicks: 100, ownerId: 'taker' }]);
    const taker = limitTaker({
      orderId: 't',
      priceTicks: 100,
      timeInForce: 'post_only',
      stpMode: 'cancel_maker',
    });
    assert.equal(match(book, taker).takerCancelledReason, 'post_only_would_take');
    assert.equal(book.orderCount, 1);
  });

  test(`${name}: match when stp is cancel_taker keeps earlier fills and the maker`, () => {
    const book = bookWith(create, [
      { orderId: 'other', side: 'sell', priceTicks: 100, remainingLots: 1 },
      { orderId: 'own', side: 'sell', priceTicks: 100, remainingLots: 2, ownerId: 'taker' },
      { orderId: 'behind', side: 'sell', priceTicks: 100, remainingLots: 2 },
    ]);
    const result = match(
      book,
      limitTaker({ orderId: 't', priceTicks: 100, lots: 4, stpMode: 'cancel_taker' }),
    );
    assert.deepEqual(fillSummary(result), [['other', 100, 1]]);
    assert.equal(result.takerCancelledReason, 'stp');
    assert.equal(result.takerRestingLots, 0);
    assert.deepEqual(result.makersCancelled, []);
    assert.deepEqual(
      book.restingOrders().map((order) => order.orderId),
      ['own', 'behind'],
    );
  });

  test(`${name}: match when stp is cancel_maker cancels own makers and keeps matching`, () => {
    const book = bookWith(create, [
      { orderId: 'own-1', side: 'sell', priceTicks: 100, remainingLots: 2, ownerId: 'taker' },
      { orderId: 'other', side: 'sell', priceTicks: 100, remainingLots: 1 },
      { orderId: 'own-2', side: 'sell', priceTicks: 101, remainingLots: 4, ownerId: 'taker' },
    ]);
    const result = match(
      book,
      limitTaker({ orderId: 't', priceTicks: 101, lots: 3, stpMode: 'cancel_maker' }),
    );
    assert.deepEqual(fillSummary(result), [['other', 100, 1]]);
    assert.deepEqual(result.makersCancelled, [
      { orderId: 'own-1', ownerId: 'taker', remainingLots: 2, reason: 'stp' },
      { orderId: 'own-2', ownerId: 'taker', remainingLots: 4, reason: 'stp' },
    ]);
    assert.equal(result.takerRestingLots, 2);
    assert.equal(result.takerCancelledReason, undefined);
    assert.deepEqual(
      book.restingOrders().map((order) => order.orderId),
      ['t'],
    );
  });

  test(`${name}: match when stp is cancel_both cancels the maker and the taker remainder`, () => {
    const book = bookWith(create, [
      { orderId: 'other', side: 'buy', priceTicks: 100, remainingLots: 1 },
      { orderId: 'own', side: 'buy', priceTicks: 99, remainingLots: 2, ownerId: 'taker' },
      { orderId: 'deeper', side: 'buy', priceTicks: 98, remainingLots: 5 },
    ]);
    const result = match(book, marketTaker({ orderId: 't', side: 'sell', lots: 5, stpMode: 'cancel_both' }));
    assert.deepEqual(fillSummary(result), [['other', 100, 1]]);
    assert.deepEqual(result.makersCancelled, [
      { orderId: 'own', ownerId: 'taker', remainingLots: 2, reason: 'stp' },
    ]);
    assert.equal(result.takerCancelledReason, 'stp');
    assert.deepEqual(
      book.restingOrders().map((order) => order.orderId),
      ['deeper'],
    );
  });

  test(`${name}: match when stp is none lets an owner trade with itself`, () => {
    const book = bookWith(create, [
      { orderId: 'own', side: 'sell', priceTicks: 100, ownerId: 'taker', stpMode: 'cancel_both' },
    ]);
    const result = match(book, limitTaker({ orderId: 't', priceTicks: 100, stpMode: 'none' }));
    assert.deepEqual(fillSummary(result), [['own', 100, 1]]);
    assert.equal(result.fills[0]?.makerOwnerId, 'taker');
  });

  test(`${name}: match when owners differ ignores stp`, () => {
    const book = bookWith(create, [{ orderId: 'm', side: 'sell', priceTicks: 100 }]);
    const result = match(book, limitTaker({ orderId: 't', priceTicks: 100, stpMode: 'cancel_both' }));
    assert.equal(result.takerFilledLots, 1);
    assert.equal(result.takerCancelledReason, undefined);
  });
}
