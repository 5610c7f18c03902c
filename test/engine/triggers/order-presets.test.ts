/**
 * TP/SL presets of ordinary futures orders in the engine (engine/triggers/order-presets.ts):
 * checked at placement (close orders, sides, grid), kept on the order, attached at the first
 * fill as one grouped pos_profit/pos_loss pair, and gone without trace when the order ends
 * unfilled or opens nothing. BTCUSDT USDT-M, index 60000, one-way unless stated.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OrderRequest } from '../../../src/domain/commands.ts';
import type { PlanPreset } from '../../../src/domain/plan.ts';
import { assertReplaysExactly, money } from '../../support/engine-builders.ts';
import { CATEGORY, TriggerHarness } from './support.ts';

const preset = (triggerPrice: string, executePrice = ''): PlanPreset => ({
  triggerPrice,
  triggerType: 'mark_price',
  executePrice,
});

function livePlans(harness: TriggerHarness, uid: string) {
  return [...harness.state.plans.live.values()]
    .filter((plan) => plan.uid === uid)
    .map((plan) => [
      plan.planType,
      plan.triggerPrice,
      plan.direction,
      plan.orderType,
      plan.groupId !== undefined,
    ])
    .sort();
}

function placeOne(harness: TriggerHarness, uid: string, item: Partial<OrderRequest> & { quantity: string }) {
  const [result] = harness.place(uid, CATEGORY, item);
  return result;
}

test('place when presets break a rule answers the code and changes nothing', () => {
  const harness = new TriggerHarness();
  const uid = harness.trader();
  const before = harness.balance(uid, 'USDT', 'usdt_futures');
  const cases: [Partial<OrderRequest>, string, string[] | undefined][] = [
    [{ side: 'buy', price: '60000', takeProfit: preset('59000') }, 'PRESET_PRICE_INVALID', ['takeProfit']],
    [{ side: 'sell', price: '60000', stopLoss: preset('59000') }, 'PRESET_PRICE_INVALID', ['stopLoss']],
    [
      { side: 'buy', orderType: 'market', stopLoss: preset('60000') },
      'STOP_LOSS_LONG_PRICE_INVALID',
      ['triggerPrice'],
    ],
    [
      { side: 'sell', orderType: 'market', takeProfit: preset('60000') },
      'TAKE_PROFIT_SHORT_PRICE_INVALID',
      ['triggerPrice'],
    ],
    [
      { side: 'sell', reduceOnly: true, price: '60000', takeProfit: preset('59000') },
      'PARAM_ERROR',
      ['takeProfit'],
    ],
    [{ side: 'buy', price: '60000', takeProfit: preset('61000.05') }, 'PRICE_PRECISION_INVALID', undefined],
  ];
  for (const [item, code, params] of cases) {
    const result = placeOne(harness, uid, { quantity: '0.1', ...item });
    assert.equal(result?.code, code, JSON.stringify(item));
    if (params) assert.deepEqual((result as { params?: string[] }).params, params);
  }
  assert.deepEqual(harness.balance(uid, 'USDT', 'usdt_futures'), before);
  assert.equal(harness.state.orders.size, 0);
  assert.equal(harness.state.plans.awaitingFill.size, 0);
});

test('place when a limit order fills in parts attaches its presets at the first fill, once', () => {
  const harness = new TriggerHarness();
  const uid = harness.trader();
  const [placed] = harness.place(uid, CATEGORY, {
    side: 'sell',
    price: '60000',
    quantity: '0.2',
    takeProfit: preset('58000'),
    stopLoss: preset('61000', '61100'),
  });
  const orderId = String(placed?.orderId);
  assert.deepEqual(harness.state.orders.get(orderId)?.futures?.takeProfit, preset('58000'));
  assert.equal(harness.state.plans.awaitingFill.size, 1, 'waiting for the first fill');
  assert.deepEqual(livePlans(harness, uid), []);

  harness.order(harness.trader(), { side: 'buy', price: '60000', quantity: '0.05' });
  // A short's TP waits for a fall, its SL (a limit at 61100) for a rise; one group.
  assert.deepEqual(livePlans(harness, uid), [
    ['pos_loss', money('61000'), 'up', 'limit', true],
    ['pos_profit', money('58000'), 'down', 'market', true],
  ]);
  assert.equal(harness.state.plans.awaitingFill.size, 0);
  const [first, second] = [...harness.state.plans.live.values()];
  assert.equal(first?.groupId, second?.groupId);

  harness.order(harness.trader(), { side: 'buy', price: '60000', quantity: '0.15' });
  assert.equal(harness.state.plans.live.size, 2, 'later fills attach nothing more');
  // The TP protects the whole short: 0.2 closes at the bid when the mark falls to 58000.
  harness.rest('sell', '58100', '1');
  harness.setIndex('58000');
  const position = [...harness.state.positions.values()].find((row) => row.uid === uid);
  assert.equal(position, undefined);
  assert.deepEqual(livePlans(harness, uid), []);
  harness.assertConserved();
  assertReplaysExactly(harness);
});

test('place when the order ends unfilled or only reduces leaves no presets behind', () => {
  const harness = new TriggerHarness();
  const uid = harness.trader();
  const [resting] = harness.place(uid, CATEGORY, {
    side: 'buy',
    price: '59000',
    quantity: '0.1',
    stopLoss: preset('58000'),
  });
  harness.ok({
    type: 'CancelOrders',
    timeMs: harness.nowMs,
    uid,
    items: [{ orderId: String(resting?.orderId) }],
  });
  assert.equal(harness.state.plans.awaitingFill.size, 0);

  // One-way: a short of 0.1, then a buy of 0.05 with presets only reduces it: no long to protect.
  harness.open(uid, 'short', '0.1', '60000');
  harness.rest('sell', '60000', '0.05');
  harness.order(uid, { side: 'buy', price: '60000', quantity: '0.05', takeProfit: preset('62000') });
  assert.equal(harness.state.plans.awaitingFill.size, 0);
  assert.deepEqual(livePlans(harness, uid), []);
  harness.assertConserved();
});

test('modify when only presets change replaces them on an unfilled order, and refuses after a fill', () => {
  const harness = new TriggerHarness();
  const uid = harness.trader();
  const [placed] = harness.place(uid, CATEGORY, {
    side: 'buy',
    price: '59000',
    quantity: '0.1',
    takeProfit: preset('61000'),
  });
  const order = { orderId: String(placed?.orderId) };
  const modify = (changes: object) =>
    harness.run({ type: 'ModifyOrder', timeMs: harness.nowMs, uid, order, autoCancel: false, ...changes })
      .outcome;
  assert.ok(modify({ takeProfit: null, stopLoss: preset('58000') }).ok);
  const futures = harness.state.orders.get(order.orderId)?.futures;
  assert.deepEqual([futures?.takeProfit, futures?.stopLoss], [undefined, preset('58000')]);
  assert.deepEqual(harness.state.plans.awaitingFill.get(order.orderId)?.stopLoss, preset('58000'));
  assert.equal((modify({}) as { code?: string }).code, 'MODIFY_UNCHANGED');

  harness.order(harness.trader(), { side: 'sell', price: '59000', quantity: '0.05' });
  assert.equal((modify({ stopLoss: preset('57000') }) as { code?: string }).code, 'ORDER_NOT_MODIFIABLE');
  assert.deepEqual(livePlans(harness, uid), [['pos_loss', money('58000'), 'down', 'market', false]]);
});

test('place in hedge mode when the order closes refuses presets', () => {
  const harness = new TriggerHarness();
  const uid = harness.trader();
  harness.ok({
    type: 'SetPositionMode',
    timeMs: harness.nowMs,
    uid,
    category: CATEGORY,
    posMode: 'hedge_mode',
  });
  const result = placeOne(harness, uid, {
    side: 'sell',
    posSide: 'long',
    price: '61000',
    quantity: '0.1',
    stopLoss: preset('59000'),
  });
  assert.deepEqual([result?.code, (result as { params?: string[] }).params], ['PARAM_ERROR', ['stopLoss']]);
});
