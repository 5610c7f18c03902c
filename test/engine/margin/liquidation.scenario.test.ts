/**
 * Spot margin liquidation through the engine (src/engine/margin/liquidation.ts), on the default
 * catalogue: BTCUSDT margin fee 0.1 % (maker and taker) on what is received, lot 0.000001 BTC;
 * maintenance 5 % isolated, 10 % crossed; liquidation at risk ratio 1, stop at 0.5. Interest,
 * one hour charged at borrowing: BTC principal × 0.00003 ÷ 24, USDT principal × 0.000126279
 * ÷ 24, rounded up to 8 decimals. The trade step x of a liquidation (its header):
 *   x = (L·m − s·E) ÷ ((1 − f)·m − s·f), s = 0.5, f = 0.001; isolated divisor 0.04945,
 *   crossed 0.0994; rounded up to whole lots at the index.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertReplaysExactly, EngineHarness, money, T0 } from '../../support/engine-builders.ts';

const ISOLATED = 'isolated_margin:BTCUSDT';
const CROSSED = 'crossed_margin';

function setIndex(harness: EngineHarness, price: string) {
  const events = [];
  for (const category of ['MARGIN', 'SPOT'] as const) {
    const { outcome, events: emitted } = harness.run({
      type: 'SetIndexPrice',
      timeMs: harness.nowMs,
      category,
      symbol: 'BTCUSDT',
      indexPrice: price,
    });
    assert.ok(outcome.ok);
    events.push(...emitted);
  }
  return events;
}

function liquidations(events: { type: string }[]) {
  return events.filter((event) => event.type === 'MarginLiquidated');
}

function debt(harness: EngineHarness, uid: string, wallet: string, coin: string) {
  const balance = harness.balance(uid, coin, wallet);
  return [balance.available, balance.borrowed, balance.interest];
}

function marginOrder(side: 'buy' | 'sell', price: string, quantity: string, extra = {}) {
  return { side, price, quantity, marginMode: 'crossed' as const, ...extra };
}

test('isolated short liquidation when the price rises buys BTC back through the book down to the safe ratio, the crossed wallet untouched', () => {
  const harness = new EngineHarness();
  const maker = harness.account({ BTC: '1', USDT: '20000' }, CROSSED);
  const trader = harness.account({ USDT: '1000' }, ISOLATED);
  harness.ok({
    type: 'Deposit',
    timeMs: T0,
    uid: trader,
    coin: 'USDT',
    amount: money('500'),
    wallet: CROSSED,
    subType: 'onchain',
  });
  // Borrows 0.1 BTC: interest 0.1 × 0.00003 ÷ 24 = 0.000000125 → 0.00000013 BTC.
  harness.ok({
    type: 'BorrowMargin',
    timeMs: T0,
    uid: trader,
    marginType: 'isolated',
    symbol: 'BTCUSDT',
    coin: 'BTC',
    amount: '0.1',
  });
  harness.place(maker, 'MARGIN', marginOrder('buy', '60000', '0.1'));
  // Sells the 0.1 BTC at 60000: 6000 less 6 fee, 6994 USDT; owes 0.10000013 BTC.
  harness.place(trader, 'MARGIN', {
    ...marginOrder('sell', '60000', '0.1'),
    marginMode: 'isolated',
    loanType: 'normal',
  });
  harness.place(maker, 'MARGIN', marginOrder('sell', '67000', '0.2'));
  assert.deepEqual(debt(harness, trader, ISOLATED, 'USDT'), [money('6994'), 0n, 0n]);

  // At 67000: L = 0.10000013 × 67000 = 6700.00871, E = 6994 − 6700.00871 = 293.99129,
  // ratio = 6700.00871 × 0.05 ÷ 293.99129 = 1.1395 ≥ 1. Nothing repays from own coins (no BTC).
  // x = (335.0004355 − 146.995645) ÷ 0.04945 = 3801.9168958… USDT = 0.05674503… BTC → 0.056746.
  const events = setIndex(harness, '67000');
  assert.equal(liquidations(events).length, 1, 'liquidated in the command that moved the index');
  // Bought 0.056746 at 67000 = 3801.982 USDT; received 0.056746 − 0.000056746 fee
  // (→ 0.00005675) = 0.05668925 BTC, repaying 0.00000013 interest then 0.05668912 principal:
  // 0.10000013 − 0.05668925 = 0.04331088 BTC owed; 6994 − 3801.982 = 3192.018 USDT left.
  assert.deepEqual(debt(harness, trader, ISOLATED, 'BTC'), [0n, money('0.04331088'), 0n]);
  assert.deepEqual(debt(harness, trader, ISOLATED, 'USDT'), [money('3192.018'), 0n, 0n]);
  // Ratio after: 0.04331088 × 67000 = 2901.82896; 2901.82896 × 0.05 ÷ (3192.018 − 2901.82896)
  // = 145.091448 ÷ 290.18904 = 0.49999 ≤ 0.5: no second step.
  assert.deepEqual(debt(harness, trader, CROSSED, 'USDT'), [money('500'), 0n, 0n]);
  harness.assertConserved();
});

/** A crossed long: 1000 USDT, buys 0.04 BTC at 60000 with 1400 USDT borrowed. */
function crossedLong(harness: EngineHarness, bidQuantity: string) {
  const maker = harness.account({ BTC: '1', USDT: '20000' }, CROSSED);
  const trader = harness.account({ USDT: '1000' }, CROSSED);
  harness.place(maker, 'MARGIN', marginOrder('sell', '60000', '0.04'));
  // 2400 USDT against 1000: 1400 borrowed, interest 1400 × 0.000126279 ÷ 24 = 0.00736627…
  // → 0.00736628; receives 0.04 − 0.00004 fee = 0.03996 BTC.
  harness.place(trader, 'MARGIN', marginOrder('buy', '60000', '0.04', { loanType: 'autoLoan' }));
  harness.place(maker, 'MARGIN', marginOrder('buy', '38000', bidQuantity));
  assert.deepEqual(debt(harness, trader, CROSSED, 'USDT'), [0n, money('1400'), money('0.00736628')]);
  assert.deepEqual(debt(harness, trader, CROSSED, 'BTC'), [money('0.03996'), 0n, 0n]);
  return { maker, trader };
}

test('crossed long liquidation when the price falls sells only what brings the ratio to 0.5', () => {
  const harness = new EngineHarness();
  const { trader } = crossedLong(harness, '0.05');
  // At 38000: A = 0.03996 × 38000 = 1518.48, L = 1400.00736628, E = 118.47263372,
  // ratio = 140.000736628 ÷ 118.47263372 = 1.1817 ≥ 1.
  // x = (140.000736628 − 59.23631686) ÷ 0.0994 = 812.5193… USDT = 0.02138208… BTC → 0.021383.
  assert.equal(liquidations(setIndex(harness, '38000')).length, 1);
  // 0.021383 × 38000 = 812.554, less 0.812554 fee = 811.741446 repaid (0.00736628 interest
  // first): 1400.00736628 − 811.741446 = 588.26592028 owed; 0.03996 − 0.021383 = 0.018577 BTC.
  assert.deepEqual(debt(harness, trader, CROSSED, 'USDT'), [0n, money('588.26592028'), 0n]);
  assert.deepEqual(debt(harness, trader, CROSSED, 'BTC'), [money('0.018577'), 0n, 0n]);
  // Ratio after: 58.826592028 ÷ (705.926 − 588.26592028) = 0.49997 ≤ 0.5.
  harness.assertConserved();
});

test('crossed long liquidation when the book is too thin leaves the rest as debt and goes on at the next check', () => {
  const harness = new EngineHarness();
  const { maker, trader } = crossedLong(harness, '0.005');
  // The step wants 0.021383 BTC (above); the book holds 0.005: sold, 190 less 0.19 fee =
  // 189.81 repaid; the next step finds no bid and stops. Still owed: 1400.00736628 − 189.81.
  assert.equal(liquidations(setIndex(harness, '38000')).length, 1);
  assert.deepEqual(debt(harness, trader, CROSSED, 'USDT'), [0n, money('1210.19736628'), 0n]);
  assert.deepEqual(debt(harness, trader, CROSSED, 'BTC'), [money('0.03496'), 0n, 0n]);
  harness.assertConserved();

  // A bid arrives; the next clock step checks again. A = 0.03496 × 38000 = 1328.48,
  // E = 118.28263372, x = (121.019736628 − 59.14131686) ÷ 0.0994 = 622.5193… USDT
  // = 0.01638208… BTC → 0.016383: 622.554 less 0.622554 = 621.931446 repaid.
  harness.place(maker, 'MARGIN', marginOrder('buy', '38000', '0.05'));
  const { events } = harness.run({ type: 'AdvanceClock', timeMs: harness.nowMs, ms: 1000 });
  assert.equal(liquidations(events).length, 1);
  assert.deepEqual(debt(harness, trader, CROSSED, 'USDT'), [0n, money('588.26592028'), 0n]);
  assert.deepEqual(debt(harness, trader, CROSSED, 'BTC'), [money('0.018577'), 0n, 0n]);
  harness.assertConserved();
  assertReplaysExactly(harness);
});
