import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stateHash } from '../../../src/engine/matching/book-hash.ts';
import { match } from '../../../src/engine/matching/matcher.ts';
import { asks, bookWith, fillSummary } from './matcher-fixtures.ts';
import { bookImplementations, limitTaker, marketTaker, quoteOf } from './support.ts';

for (const { name, create } of bookImplementations) {
  test(`${name}: match when a gtc buy crosses several levels fills best first at maker prices and rests the rest`, () => {
    const book = bookWith(create, asks);
    const result = match(book, limitTaker({ orderId: 't', priceTicks: 102, lots: 8, sequence: 500 }));
    assert.deepEqual(fillSummary(result), [
      ['ask-100-a', 100, 1],
      ['ask-100-b', 100, 3],
      ['ask-101-a', 101, 2],
    ]);
    assert.equal(result.takerFilledLots, 6);
    assert.equal(result.takerRestingLots, 2);
    assert.equal(result.takerCancelledReason, undefined);
    assert.equal(result.takerQuoteSpent, quoteOf(100, 4) + quoteOf(101, 2));
    assert.deepEqual(
      result.fills.map((fill) => fill.quote),
      [quoteOf(100, 1), quoteOf(100, 3), quoteOf(101, 2)],
    );
    assert.deepEqual(
      { ...book.get('t') },
      {
        orderId: 't',
        ownerId: 'taker',
        side: 'buy',
        priceTicks: 102,
        remainingLots: 2,
        sequence: 500,
        stpMode: 'none',
      },
    );
    assert.equal(book.bestPriceTicks('sell'), 103);
  });

  test(`${name}: match when a limit does not cross rests it without fills`, () => {
    const book = bookWith(create, asks);
    const result = match(book, limitTaker({ orderId: 't', priceTicks: 99, lots: 4 }));
    assert.equal(result.fills.length, 0);
    assert.equal(result.takerRestingLots, 4);
    assert.equal(book.bestPriceTicks('buy'), 99);
  });

  test(`${name}: match when a sell crosses bids takes bids priced at or above its limit`, () => {
    const book = bookWith(create, [
      { orderId: 'bid-99', side: 'buy', priceTicks: 99, remainingLots: 1 },
      { orderId: 'bid-98', side: 'buy', priceTicks: 98, remainingLots: 1 },
      { orderId: 'bid-97', side: 'buy', priceTicks: 97, remainingLots: 1 },
    ]);
    const result = match(book, limitTaker({ orderId: 't', side: 'sell', priceTicks: 98, lots: 3 }));
    assert.deepEqual(fillSummary(result), [
      ['bid-99', 99, 1],
      ['bid-98', 98, 1],
    ]);
    assert.equal(result.takerRestingLots, 1);
    assert.equal(book.bestPriceTicks('sell'), 98);
    assert.equal(book.bestPriceTicks('buy'), 97);
  });

  test(`${name}: match when it partially fills a maker leaves the maker first in its level`, () => {
    const book = bookWith(create, asks);
    const result = match(book, limitTaker({ orderId: 't', priceTicks: 100, lots: 2, timeInForce: 'ioc' }));
    assert.deepEqual(fillSummary(result), [
      ['ask-100-a', 100, 1],
      ['ask-100-b', 100, 1],
    ]);
    assert.equal(book.best('sell')?.orderId, 'ask-100-b');
    assert.equal(book.best('sell')?.remainingLots, 2);
    assert.equal(result.takerCancelledReason, undefined);
  });

  test(`${name}: match when ioc cannot fill everything cancels the remainder`, () => {
    const book = bookWith(create, asks);
    const result = match(book, limitTaker({ orderId: 't', priceTicks: 100, lots: 10, timeInForce: 'ioc' }));
    assert.equal(result.takerFilledLots, 4);
    assert.equal(result.takerRestingLots, 0);
    assert.equal(result.takerCancelledReason, 'ioc_remainder');
    assert.equal(book.get('t'), undefined);
  });

  test(`${name}: match when ioc crosses nothing cancels it whole`, () => {
    const book = bookWith(create, asks);
    const result = match(book, limitTaker({ orderId: 't', priceTicks: 90, lots: 1, timeInForce: 'ioc' }));
    assert.equal(result.takerFilledLots, 0);
    assert.equal(result.takerCancelledReason, 'ioc_remainder');
    assert.equal(book.orderCount, asks.length);
  });

  test(`${name}: match when fok has enough depth fills completely`, () => {
    const book = bookWith(create, asks);
    const result = match(book, limitTaker({ orderId: 't', priceTicks: 101, lots: 6, timeInForce: 'fok' }));
    assert.equal(result.takerFilledLots, 6);
    assert.equal(result.takerCancelledReason, undefined);
    assert.equal(result.takerRestingLots, 0);
  });

  test(`${name}: match when fok lacks depth within its limit changes nothing`, () => {
    const book = bookWith(create, asks);
    const hashBefore = stateHash(book);
    const result = match(book, limitTaker({ orderId: 't', priceTicks: 101, lots: 7, timeInForce: 'fok' }));
    assert.equal(result.takerCancelledReason, 'fok_unfillable');
    assert.equal(result.fills.length, 0);
    assert.equal(result.takerFilledLots, 0);
    assert.equal(stateHash(book), hashBefore);
  });

  test(`${name}: match when post_only would take rejects it and leaves the book unchanged`, () => {
    const book = bookWith(create, asks);
    const hashBefore = stateHash(book);
    const result = match(
      book,
      limitTaker({ orderId: 't', priceTicks: 100, lots: 1, timeInForce: 'post_only' }),
    );
    assert.equal(result.takerCancelledReason, 'post_only_would_take');
    assert.equal(result.fills.length, 0);
    assert.equal(stateHash(book), hashBefore);
  });

  test(`${name}: match when post_only does not cross rests it`, () => {
    const book = bookWith(create, asks);
    const result = match(
      book,
      limitTaker({ orderId: 't', priceTicks: 99, lots: 2, timeInForce: 'post_only' }),
    );
    assert.equal(result.takerRestingLots, 2);
    assert.equal(result.takerCancelledReason, undefined);
    assert.equal(book.best('buy')?.orderId, 't');
  });

  test(`${name}: match when the taker is malformed throws`, () => {
    const book = bookWith(create, asks);
    assert.throws(() => match(book, limitTaker({ orderId: 't', lots: 0 })));
    assert.throws(() => match(book, limitTaker({ orderId: 't', priceTicks: undefined })));
    assert.throws(() => match(book, limitTaker({ orderId: 't', quoteBudget: 5n })));
    assert.throws(() => match(book, marketTaker({ orderId: 't' })));
    assert.throws(() => match(book, marketTaker({ orderId: 't', quoteBudget: 0n })));
    assert.throws(() => match(book, marketTaker({ orderId: 't', lots: -1 })));
    assert.throws(() => match(book, limitTaker({ orderId: 'ask-100-a', priceTicks: 110, lots: 1 })));
    assert.equal(book.orderCount, asks.length);
  });
}
