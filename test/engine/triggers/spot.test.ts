/**
 * Spot plans in the engine: how `total` and `amount` sizes become the order a plan places at
 * the price that fires it, that nothing is held while a plan waits, modify (direction kept
 * unless the trigger moves), refusals, and exact replay. BTCUSDT spot: price 2 places,
 * quantity 6, quote 8; ETHUSDT spot: 2, 4 and 6.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PlanRequest } from '../../../src/domain/commands.ts';
import { assertReplaysExactly, money } from '../../support/engine-builders.ts';
import { TriggerHarness } from './support.ts';

class SpotHarness extends TriggerHarness {
  spotIndex(indexPrice: string, symbol = 'BTCUSDT'): void {
    this.ok({ type: 'SetIndexPrice', timeMs: this.nowMs, category: 'SPOT', symbol, indexPrice });
  }

  spotPlan(uid: string, item: Partial<PlanRequest>) {
    return this.run({
      type: 'PlacePlanOrders',
      timeMs: this.nowMs,
      uid,
      category: 'SPOT',
      items: [
        {
          planType: 'normal_plan',
          symbol: 'BTCUSDT',
          triggerType: 'mark_price',
          triggerPrice: '59000',
          orderType: 'market',
          size: '0.01',
          side: 'sell',
          stpMode: 'none',
          ...item,
        },
      ],
    });
  }

  spotPlanId(uid: string, item: Partial<PlanRequest>): string {
    const { outcome } = this.spotPlan(uid, item);
    assert.ok(outcome.ok, outcome.ok ? '' : `${outcome.code} ${outcome.params?.join(' ') ?? ''}`);
    return (outcome.value as { orderId: string }[])[0]?.orderId ?? '';
  }

  spotRest(side: 'buy' | 'sell', price: string, quantity: string, symbol = 'BTCUSDT'): void {
    const maker = this.account({ USDT: '1000000', BTC: '100', ETH: '1000' });
    const [result] = this.place(maker, 'SPOT', { symbol, side, price, quantity });
    assert.ok(result && !result.code, JSON.stringify(result));
  }

  /** The order a plan placed, as last reported. */
  placed(planId: string) {
    const executeOrderId = this.report(planId)?.executeOrderId ?? '';
    assert.ok(executeOrderId, `plan ${planId} placed no order (${this.report(planId)?.status})`);
    return this.lastOrder(executeOrderId);
  }
}

test('spot plan when `total` and limit places quote ÷ limit price in whole lots', () => {
  const harness = new SpotHarness();
  const uid = harness.account({ USDT: '5000' });
  const planId = harness.spotPlanId(uid, {
    side: 'buy',
    orderType: 'limit',
    price: '60100',
    sizeUnit: 'total',
    size: '1000',
    triggerPrice: '60050',
    timeInForce: 'post_only',
  });
  assert.equal(harness.report(planId)?.size, '1000');
  assert.deepEqual(harness.report(planId)?.spot, { sizeUnit: 'total', timeInForce: 'post_only' });
  assert.equal(harness.balance(uid, 'USDT').frozen, 0n, 'a waiting plan holds nothing');
  harness.spotIndex('60050');
  // 1000 ÷ 60100 = 0.0166389… → 0.016638 BTC, resting post-only at 60100 (1000 − 0.0000238 left).
  const order = harness.placed(planId);
  assert.deepEqual(
    [order?.orderType, order?.price, order?.qty, order?.timeInForce, order?.status],
    ['limit', '60100', '0.016638', 'post_only', 'live'],
  );
  assert.equal(harness.balance(uid, 'USDT').frozen, money('999.9438'));
  harness.assertConserved();
});

test('spot plan when `total` and a market sell sells quote ÷ the firing price in whole lots', () => {
  const harness = new SpotHarness();
  const uid = harness.account({ BTC: '1' });
  harness.spotRest('buy', '58900', '1');
  const planId = harness.spotPlanId(uid, { sizeUnit: 'total', size: '600', triggerPrice: '59000' });
  harness.spotIndex('59000');
  // The mark is the 59000 index (the book is one-sided): 600 ÷ 59000 = 0.01016949… → 0.010169.
  const order = harness.placed(planId);
  assert.deepEqual(
    [order?.orderType, order?.side, order?.qty, order?.status],
    ['market', 'sell', '0.010169', 'filled'],
  );
  harness.assertConserved();
});

test('spot plan when `amount` and a market buy spends size × the firing price, rounded down', () => {
  const harness = new SpotHarness();
  const uid = harness.account({ USDT: '1000' });
  harness.spotRest('sell', '3001', '10', 'ETHUSDT');
  const planId = harness.spotPlanId(uid, {
    symbol: 'ETHUSDT',
    side: 'buy',
    size: '0.1237',
    triggerPrice: '2999.99',
  });
  // Waits for a fall (the 3000 index is above 2999.99); the index lands at 2999.985.
  harness.spotIndex('2999.985', 'ETHUSDT');
  // 0.1237 × 2999.985 = 371.0981445 → 371.098144 USDT at the 6-place quote precision.
  const order = harness.placed(planId);
  assert.deepEqual([order?.orderType, order?.amount, order?.qty], ['market', '371.098144', '0']);
  // 371.098144 ÷ 3001 buys 0.1236 ETH (370.9236 USDT); the rest of the budget is released.
  assert.equal(harness.balance(uid, 'USDT').available, money('629.0764'));
  assert.equal(harness.balance(uid, 'USDT').frozen, 0n);
  harness.assertConserved();
  assertReplaysExactly(harness);
});

test('spot plan modify keeps the direction unless the trigger moves, then waits by the price now', () => {
  const harness = new SpotHarness();
  const uid = harness.account({ BTC: '1' });
  const planId = harness.spotPlanId(uid, { triggerPrice: '59000' });
  assert.equal(harness.live(planId)?.direction, 'down');
  const modify = (fields: Record<string, string>) =>
    harness.run({
      type: 'ModifyPlanOrder',
      timeMs: harness.nowMs,
      uid,
      category: 'SPOT',
      reference: { planId },
      planTypes: ['normal_plan'],
      ...fields,
    }).outcome;
  assert.ok(modify({ triggerPrice: '59000', orderType: 'limit', price: '58900', size: '0.02' }).ok);
  assert.deepEqual(
    [harness.live(planId)?.direction, harness.live(planId)?.orderType, harness.live(planId)?.sizeLots],
    ['down', 'limit', 20000],
  );
  assert.ok(modify({ triggerPrice: '61000', orderType: 'market', size: '0.02' }).ok);
  assert.deepEqual([harness.live(planId)?.direction, harness.live(planId)?.executePrice], ['up', 0n]);
  const refused = modify({ triggerPrice: '61000', orderType: 'market', size: '0.0000001' });
  assert.equal(refused.ok ? 'ok' : refused.code, 'QUANTITY_PRECISION_INVALID');
  assert.equal(harness.live(planId)?.sizeLots, 20000, 'a refused modify changes nothing');
});

test('spot plan when the type, symbol or category is wrong is refused and nothing is placed', () => {
  const harness = new SpotHarness();
  const uid = harness.account({ USDT: '1000' });
  const codeOf = (outcome: { ok: boolean; code?: string }) => (outcome.ok ? 'ok' : outcome.code);
  assert.equal(
    codeOf(harness.spotPlan(uid, { planType: 'track_plan', callbackRatio: '1' }).outcome),
    'PARAM_ERROR',
  );
  assert.equal(codeOf(harness.spotPlan(uid, { symbol: 'BTCUSDC' }).outcome), 'SYMBOL_NOT_FOUND');
  assert.equal(codeOf(harness.spotPlan(uid, { size: '0.00001' }).outcome), 'AMOUNT_BELOW_MINIMUM');
  const margin = harness.run({
    type: 'PlacePlanOrders',
    timeMs: harness.nowMs,
    uid,
    category: 'MARGIN',
    items: [
      {
        planType: 'normal_plan',
        symbol: 'BTCUSDT',
        triggerType: 'mark_price',
        triggerPrice: '59000',
        orderType: 'market',
        size: '0.01',
        side: 'sell',
        stpMode: 'none',
      },
    ],
  });
  assert.equal(codeOf(margin.outcome), 'SYMBOL_NOT_FOUND');
  assert.equal(harness.state.plans.live.size, 0);
});
