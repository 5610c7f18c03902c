import assert from 'node:assert/strict';
import { test } from 'node:test';
import { match } from '../../../src/engine/matching/matcher.ts';
import { asks, bookWith, fillSummary } from './matcher-fixtures.ts';
import { bookImplementations, marketTaker, quoteOf } from './support.ts';

for (const { name, create } of bookImplementations) {
  test(`${name}: match when a market sell sweeps a thin book cancels the remainder`, () => {
    const book = bookWith(create, [
      { orderId: 'bid-99', side: 'buy', priceTicks: 99, remainingLots: 2 },
      { orderId: 'bid-50', side: 'buy', priceTicks: 50, remainingLots: 1 },
    ]);
    const result = match(book, marketTaker({ orderId: 't', side: 'sell', lots: 5 }));
    assert.deepEqual(fillSummary(result), [
      ['bid-99', 99, 2],
      ['bid-50', 50, 1],
    ]);
    assert.equal(result.takerCancelledReason, 'market_remainder');
    assert.equal(result.takerRestingLots, 0);
    assert.equal(book.orderCount, 0);
  });

  test(`${name}: match when a market order meets an empty side cancels it with no_liquidity`, () => {
    const book = bookWith(create, asks);
    const result = match(book, marketTaker({ orderId: 't', side: 'sell', lots: 1 }));
    assert.equal(result.takerCancelledReason, 'no_liquidity');
    assert.equal(result.takerFilledLots, 0);
    assert.equal(book.orderCount, asks.length);
  });

  test(`${name}: match when a market sell is fully filled sets no reason`, () => {
    const book = bookWith(create, [{ orderId: 'bid', side: 'buy', priceTicks: 99, remainingLots: 5 }]);
    const result = match(book, marketTaker({ orderId: 't', side: 'sell', lots: 5 }));
    assert.equal(result.takerFilledLots, 5);
    assert.equal(result.takerCancelledReason, undefined);
  });

  test(`${name}: match when a market buy has a quote budget buys whole lots until the next is unaffordable`, () => {
    const book = bookWith(create, asks);
    const budget = quoteOf(100, 4) + quoteOf(101, 1) + quoteOf(101, 1) - 1n;
    const result = match(book, marketTaker({ orderId: 't', quoteBudget: budget }));
    assert.deepEqual(fillSummary(result), [
      ['ask-100-a', 100, 1],
      ['ask-100-b', 100, 3],
      ['ask-101-a', 101, 1],
    ]);
    assert.equal(result.takerQuoteSpent, quoteOf(100, 4) + quoteOf(101, 1));
    assert.ok(result.takerQuoteSpent <= budget);
    assert.equal(result.takerCancelledReason, undefined);
    assert.equal(book.get('ask-101-a')?.remainingLots, 1);
  });

  test(`${name}: match when a market buy budget cannot buy one lot cancels it without fills`, () => {
    const book = bookWith(create, asks);
    const result = match(book, marketTaker({ orderId: 't', quoteBudget: quoteOf(100, 1) - 1n }));
    assert.equal(result.takerFilledLots, 0);
    assert.equal(result.takerCancelledReason, 'market_remainder');
    assert.equal(book.orderCount, asks.length);
  });

  test(`${name}: match when a market buy budget outlasts the book cancels the remainder`, () => {
    const book = bookWith(create, asks);
    const result = match(book, marketTaker({ orderId: 't', quoteBudget: 10n ** 12n }));
    assert.equal(result.takerFilledLots, 11);
    assert.equal(result.takerCancelledReason, 'market_remainder');
    assert.equal(book.orderCount, 0);
  });

  test(`${name}: match when a market buy budget is spent exactly by the whole book sets no reason`, () => {
    const book = bookWith(create, [{ orderId: 'ask', side: 'sell', priceTicks: 100, remainingLots: 2 }]);
    const result = match(book, marketTaker({ orderId: 't', quoteBudget: quoteOf(100, 2) }));
    assert.equal(result.takerFilledLots, 2);
    assert.equal(result.takerQuoteSpent, quoteOf(100, 2));
    assert.equal(result.takerCancelledReason, undefined);
    assert.equal(book.orderCount, 0);
  });

  test(`${name}: match when a market buy has both lots and budget stops at whichever binds first`, () => {
    const book = bookWith(create, asks);
    const result = match(book, marketTaker({ orderId: 't', lots: 3, quoteBudget: 10n ** 12n }));
    assert.equal(result.takerFilledLots, 3);
    assert.equal(result.takerCancelledReason, undefined);
  });

  test(`${name}: match when a market order has a protection price stops there`, () => {
    const book = bookWith(create, asks);
    const result = match(book, marketTaker({ orderId: 't', lots: 10, priceTicks: 101 }));
    assert.equal(result.takerFilledLots, 6);
    assert.equal(result.takerCancelledReason, 'market_remainder');
    assert.equal(book.bestPriceTicks('sell'), 103);
    assert.equal(book.get('t'), undefined);
  });
}
