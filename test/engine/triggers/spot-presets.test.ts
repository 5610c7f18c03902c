/**
 * TP/SL presets of spot orders in the engine: a sell's pair buys back the base coin it sold,
 * the first leg to fire cancels the other, nothing waits for an order done without a fill, a
 * margin order's presets are refused, and the stream replays exactly. BTCUSDT spot: maker and
 * taker fee 0.1 %, a buyer pays it in BTC, a seller in USDT.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PlanPreset } from '../../../src/domain/plan.ts';
import { assertReplaysExactly, money } from '../../support/engine-builders.ts';
import { TriggerHarness } from './support.ts';

const at = (triggerPrice: string): PlanPreset => ({
  triggerPrice,
  triggerType: 'fill_price',
  executePrice: '',
});

class SpotPresetHarness extends TriggerHarness {
  /** A resting spot order of a fresh liquidity account. */
  spotRest(side: 'buy' | 'sell', price: string, quantity: string): void {
    const maker = this.account({ USDT: '1000000', BTC: '100' });
    const [result] = this.place(maker, 'SPOT', { side, price, quantity });
    assert.ok(result && !result.code, JSON.stringify(result));
  }

  livePlansOf(uid: string) {
    return [...this.state.plans.live.values()].filter((plan) => plan.uid === uid);
  }
}

test('a sell with presets gets a pair that buys back what it sold; the TP fires and cancels the SL', () => {
  const harness = new SpotPresetHarness();
  harness.spotRest('buy', '60000', '0.01');
  const trader = harness.account({ BTC: '0.01' });
  const [placed] = harness.place(trader, 'SPOT', {
    side: 'sell',
    price: '60000',
    quantity: '0.01',
    takeProfit: at('59500'),
    stopLoss: at('60500'),
  });
  assert.ok(placed && !placed.code, JSON.stringify(placed));
  // Sold 0.01 BTC for 600 USDT less 0.6 fee: 599.4 USDT.
  assert.equal(harness.balance(trader, 'USDT').available, money('599.4'));
  const pair = harness.livePlansOf(trader);
  assert.deepEqual(
    pair.map((plan) => [plan.planType, plan.side, plan.sizeLots > 0, plan.direction, plan.orderType]),
    [
      ['profit_plan', 'buy', true, 'down', 'market'],
      ['loss_plan', 'buy', true, 'up', 'market'],
    ],
  );
  assert.equal(harness.report(pair[0]?.planId ?? '')?.size, '0.01');
  assert.equal(pair[0]?.groupId, pair[1]?.groupId, 'one pair');
  assert.equal(harness.balance(trader, 'USDT').frozen, 0n, 'the pair holds nothing while it waits');

  // A trade at 59500 (the last price reaches the TP); asks to buy back from.
  harness.spotRest('sell', '59500', '0.05');
  const other = harness.account({ USDT: '1000' });
  harness.place(other, 'SPOT', { side: 'buy', price: '59500', quantity: '0.001' });
  const [tp, sl] = pair.map((plan) => harness.report(plan.planId));
  assert.deepEqual([tp?.status, sl?.status], ['executed', 'cancelled']);
  // The buy back spends 0.01 × 59500 = 595 USDT and buys 0.01 BTC less 0.00001 fee.
  assert.equal(harness.balance(trader, 'USDT').available, money('4.4'));
  assert.equal(harness.balance(trader, 'BTC').available, money('0.00999'));
  assert.equal(harness.lastOrder(tp?.executeOrderId ?? '')?.source, 'profit_plan');
  harness.assertConserved();
  assertReplaysExactly(harness);
});

test('an order done without a fill leaves nothing; a margin order with presets is refused', () => {
  const harness = new SpotPresetHarness();
  const trader = harness.account({ USDT: '1000' });
  const [resting] = harness.place(trader, 'SPOT', {
    side: 'buy',
    price: '59000',
    quantity: '0.001',
    takeProfit: at('61000'),
  });
  assert.ok(resting && !resting.code);
  assert.equal(harness.state.plans.awaitingFill.size, 1, 'the presets wait with the order');
  harness.ok({
    type: 'CancelOrders',
    timeMs: harness.nowMs,
    uid: trader,
    items: [{ orderId: resting.orderId, category: 'SPOT', symbol: 'BTCUSDT' }],
  });
  assert.equal(harness.state.plans.awaitingFill.size, 0);
  assert.deepEqual(harness.livePlansOf(trader), []);
  const margin = harness.account({ USDT: '1000' }, 'crossed_margin');
  const [refused] = harness.place(margin, 'MARGIN', {
    side: 'buy',
    price: '59000',
    quantity: '0.001',
    takeProfit: at('61000'),
  });
  assert.equal(refused?.code, 'SPOT_TPSL_UNSUPPORTED');
  assertReplaysExactly(harness);
});
