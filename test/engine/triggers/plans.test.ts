/**
 * Plan book commands in the engine: validation codes, presets becoming position TP/SL,
 * TP/SL ending with their position, cancel and modify, and snapshot/replay determinism.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Exchange } from '../../../src/engine/exchange.ts';
import { stateHash } from '../../../src/engine/state-hash.ts';
import type { EngineState } from '../../../src/engine/state.ts';
import { decode, encode } from '../../../src/persistence/codec.ts';
import { assertReplaysExactly, money } from '../../support/engine-builders.ts';
import { CATEGORY, TriggerHarness } from './support.ts';

function failure(engine: TriggerHarness, uid: string, item: Parameters<TriggerHarness['plan']>[1]) {
  const { outcome } = engine.placePlan(uid, item);
  return outcome.ok ? 'OK' : outcome.code;
}

test('place plan when a field breaks a rule answers the venue code and changes nothing', () => {
  const engine = new TriggerHarness();
  const trader = engine.trader();
  const before = stateHash(engine.state);
  const cases: [Parameters<TriggerHarness['plan']>[1], string][] = [
    [{ triggerPrice: '59000.05' }, 'PRICE_PRECISION_INVALID'],
    [{ triggerPrice: '0' }, 'PARAM_ERROR'],
    [{ orderType: 'limit' }, 'PARAM_EMPTY'],
    [{ size: '0.00001' }, 'QUANTITY_PRECISION_INVALID'],
    [{ size: '0.0001', triggerPrice: '40000' }, 'AMOUNT_BELOW_MINIMUM'],
    [{ planType: 'track_plan' }, 'PARAM_EMPTY'],
    [{ planType: 'track_plan', callbackRatio: '10.01' }, 'PARAM_ERROR'],
    [{ planType: 'track_plan', callbackRatio: '0' }, 'PARAM_ERROR'],
    [{ planType: 'track_plan', callbackRatio: '1', orderType: 'limit', price: '59000' }, 'PARAM_ERROR'],
    [{ marginMode: 'isolated' }, 'MARGIN_MODE_MISMATCH'],
    [{ symbol: 'NOPEUSDT' }, 'SYMBOL_NOT_FOUND'],
    [{ planType: 'pos_profit', posSide: 'long', triggerPrice: '61000' }, 'TPSL_NO_POSITION'],
    [
      { side: 'buy', takeProfit: { triggerPrice: '58000', triggerType: 'mark_price', executePrice: '' } },
      'PRESET_PRICE_INVALID',
    ],
    [
      { takeProfit: { triggerPrice: '1', triggerType: 'fill_price', executePrice: '' }, reduceOnly: true },
      'PARAM_ERROR',
    ],
    [
      {
        planType: 'track_plan',
        callbackRatio: '1',
        stopLoss: { triggerPrice: '1000', triggerType: 'fill_price', executePrice: '' },
      },
      'PARAM_ERROR',
    ],
    [
      {
        planType: 'track_plan',
        callbackRatio: '1',
        stopLoss: { triggerPrice: '5', triggerType: 'mark_price', executePrice: '' },
      },
      'PARAM_ERROR',
    ],
  ];
  for (const [item, code] of cases) assert.equal(failure(engine, trader, item), code, JSON.stringify(item));
  assert.equal(stateHash(engine.state), before);
});

test('TP/SL plans are checked against their position and the current price', () => {
  const engine = new TriggerHarness();
  const trader = engine.trader();
  engine.open(trader, 'long', '0.1', '60000');
  const tpsl = (planType: 'pos_profit' | 'pos_loss' | 'profit_plan', triggerPrice: string, size?: string) =>
    failure(engine, trader, { planType, posSide: 'long', triggerPrice, ...(size ? { size } : {}) });
  assert.equal(tpsl('pos_profit', '59000'), 'TAKE_PROFIT_LONG_PRICE_INVALID');
  assert.equal(tpsl('pos_loss', '61000'), 'STOP_LOSS_LONG_PRICE_INVALID');
  assert.equal(tpsl('profit_plan', '61000', '0.2'), 'TPSL_POSITION_INSUFFICIENT');
  assert.equal(
    failure(engine, trader, { planType: 'pos_profit', posSide: 'short', triggerPrice: '59000' }),
    'TPSL_NO_POSITION',
  );
  assert.equal(tpsl('pos_profit', '61000'), 'OK');
  assert.equal(tpsl('pos_loss', '59000'), 'OK');
  assert.equal(tpsl('profit_plan', '62000', '0.05'), 'OK');
});

test('presets of a filled trigger order become position TP/SL and the TP closes the position', () => {
  const engine = new TriggerHarness();
  const trader = engine.trader();
  engine.rest('sell', '60600', '0.1');
  const planId = engine.plan(trader, {
    side: 'buy',
    triggerPrice: '60500',
    takeProfit: { triggerPrice: '62000', triggerType: 'mark_price', executePrice: '' },
    stopLoss: { triggerPrice: '59000', triggerType: 'mark_price', executePrice: '0' },
  });
  engine.setIndex('60500');
  assert.equal(engine.report(planId)?.status, 'executed');
  assert.equal(engine.position(trader, 'long')?.sizeLots, 1000);
  const attached = [...engine.state.plans.live.values()].filter((plan) => plan.uid === trader);
  assert.deepEqual(
    attached.map((plan) => [plan.planType, plan.triggerPrice, plan.direction, plan.orderType, plan.sizeLots]),
    [
      ['pos_profit', money('62000'), 'up', 'market', 0],
      ['pos_loss', money('59000'), 'down', 'market', 0],
    ],
  );
  engine.rest('buy', '61900', '1');
  engine.setIndex('62000');
  const [takeProfit, stopLoss] = attached;
  assert.equal(engine.report(takeProfit?.planId ?? '')?.status, 'executed');
  const close = engine.lastOrder(engine.report(takeProfit?.planId ?? '')?.executeOrderId ?? '');
  assert.equal(close?.source, 'pos_profit');
  assert.equal(close?.avgPrice, '61900');
  assert.equal(close?.futures?.realisedPnl, '130', '(61900 − 60600) × 0.1');
  assert.equal(engine.position(trader, 'long'), undefined);
  assert.equal(engine.report(stopLoss?.planId ?? '')?.status, 'cancelled', 'ended with its position');
  engine.assertConserved();
  assertReplaysExactly(engine);
});

test('track_plan presets are percentages of the fill price, rounded toward it', () => {
  const engine = new TriggerHarness();
  const trader = engine.trader();
  engine.rest('sell', '60600.3', '0.1');
  engine.plan(trader, {
    planType: 'track_plan',
    side: 'buy',
    triggerPrice: '60500',
    callbackRatio: '1',
    takeProfit: { triggerPrice: '1', triggerType: 'fill_price', executePrice: '' },
    stopLoss: { triggerPrice: '2.5', triggerType: 'fill_price', executePrice: '' },
  });
  engine.setIndex('60500');
  engine.setIndex('59000');
  engine.setIndex('59600'); // 59000 × 1.01 = 59590: the trailing buy fires at the ask 60600.3
  const attached = [...engine.state.plans.live.values()].filter((plan) => plan.uid === trader);
  // TP = 60600.3 × 1.01 = 61206.303 → 61206.3 (down); SL = 60600.3 × 0.975 = 59085.2925 → 59085.3 (up).
  assert.deepEqual(
    attached.map((plan) => [plan.planType, plan.triggerType, plan.triggerPrice]),
    [
      ['pos_profit', 'fill_price', money('61206.3')],
      ['pos_loss', 'fill_price', money('59085.3')],
    ],
  );
  assertReplaysExactly(engine);
});

test('cancel plans by list, by symbol and by plan type', () => {
  const engine = new TriggerHarness();
  const trader = engine.trader();
  const other = engine.trader();
  const a = engine.plan(trader, { triggerPrice: '59000', size: '0.01', clientOid: 'a-1' });
  const b = engine.plan(trader, { triggerPrice: '58000', size: '0.01' });
  const trailing = engine.plan(trader, {
    planType: 'track_plan',
    triggerPrice: '61000',
    callbackRatio: '1',
    size: '0.01',
  });
  const eth = engine.plan(trader, { symbol: 'ETHUSDT', triggerPrice: '2900', size: '0.1' });
  const foreign = engine.plan(other, { triggerPrice: '59000', size: '0.01' });
  const cancel = (fields: Record<string, unknown>) =>
    engine.ok<{ orderId: string; code?: string }[]>({
      type: 'CancelPlanOrders',
      timeMs: engine.nowMs,
      uid: trader,
      category: CATEGORY,
      planTypes: ['normal_plan'],
      ...fields,
    });
  const byList = cancel({
    symbol: 'BTCUSDT',
    items: [{ clientOid: 'a-1' }, { planId: foreign }, { planId: trailing }],
  });
  assert.deepEqual(
    byList.map((item) => [item.orderId, item.code ?? 'OK']),
    [
      [a, 'OK'],
      [foreign, 'PLAN_NOT_FOUND'],
      [trailing, 'PLAN_NOT_FOUND'],
    ],
  );
  const bySymbol = cancel({ symbol: 'BTCUSDT' });
  assert.deepEqual(
    bySymbol.map((item) => item.orderId),
    [b],
  );
  const byType = cancel({ planTypes: ['track_plan', 'moving_plan'] });
  assert.deepEqual(
    byType.map((item) => item.orderId),
    [trailing],
  );
  assert.equal(engine.report(a)?.status, 'cancelled');
  assert.equal(engine.live(eth)?.status, 'live');
  assert.equal(engine.live(foreign)?.status, 'live');
});

test('modify plan moves its trigger and presets; a new trigger re-queues it by the price now', () => {
  const engine = new TriggerHarness();
  const trader = engine.trader();
  engine.rest('buy', '57000', '1');
  const planId = engine.plan(trader, { triggerPrice: '59000', size: '0.01' });
  const modify = (fields: Record<string, unknown>) =>
    engine.run({
      type: 'ModifyPlanOrder',
      timeMs: engine.nowMs,
      uid: trader,
      category: CATEGORY,
      reference: { planId },
      planTypes: ['normal_plan'],
      ...fields,
    }).outcome;
  assert.equal(modify({ price: '58000' }).ok, false, 'a market plan has no execute price');
  assert.ok(modify({ triggerPrice: '61000', size: '0.02' }).ok);
  assert.equal(engine.live(planId)?.direction, 'up', 'above the price now: waits for a rise');
  engine.setIndex('59000');
  assert.equal(engine.live(planId)?.status, 'live');
  assert.ok(modify({ triggerPrice: '58500', triggerType: 'mark_price' }).ok);
  engine.setIndex('58500');
  const order = engine.lastOrder(engine.report(planId)?.executeOrderId ?? '');
  assert.equal(order?.qty, '0.02');
});

test('plan state survives a snapshot: decoded and continued it reaches the same state', () => {
  const run = (engine: TriggerHarness, exchange: Exchange) => {
    for (const price of ['61000', '63000', '62000', '61700']) {
      exchange.execute({
        type: 'SetIndexPrice',
        timeMs: engine.nowMs,
        category: CATEGORY,
        symbol: 'BTCUSDT',
        indexPrice: price,
      });
    }
  };
  const engine = new TriggerHarness();
  const trader = engine.trader();
  engine.open(trader, 'long', '0.1', '60000');
  engine.rest('buy', '61000', '1');
  engine.plan(trader, {
    planType: 'track_plan',
    triggerPrice: '61000',
    callbackRatio: '2',
    reduceOnly: true,
  });
  engine.plan(trader, { planType: 'pos_loss', posSide: 'long', triggerPrice: '55000' });
  engine.setIndex('61000');
  const copy = new Exchange(decode<EngineState>(encode(engine.state)));
  assert.equal(stateHash(copy.state), stateHash(engine.state));
  run(engine, engine.exchange);
  run(engine, copy);
  assert.equal(stateHash(copy.state), stateHash(engine.state));
  assert.equal(engine.state.plans.live.size, 0, 'trailing fired at 61740 and the SL ended with the position');
});

test('modify plan when a preset would land on the wrong side answers PRESET_PRICE_INVALID and changes nothing', () => {
  const engine = new TriggerHarness();
  const trader = engine.trader();
  const preset = { triggerType: 'mark_price', executePrice: '' } as const;
  const planId = engine.plan(trader, {
    side: 'buy',
    triggerPrice: '61000',
    size: '0.01',
    takeProfit: { ...preset, triggerPrice: '63000' },
  });
  const before = stateHash(engine.state);
  const modify = (fields: Record<string, unknown>) =>
    engine.run({
      type: 'ModifyPlanOrder',
      timeMs: engine.nowMs,
      uid: trader,
      category: CATEGORY,
      reference: { planId },
      planTypes: ['normal_plan'],
      ...fields,
    }).outcome;
  const below = modify({ takeProfit: { ...preset, triggerPrice: '60000' } });
  assert.equal(below.ok ? 'OK' : below.code, 'PRESET_PRICE_INVALID');
  const past = modify({ triggerPrice: '63500' });
  assert.equal(past.ok ? 'OK' : past.code, 'PRESET_PRICE_INVALID', 'the trigger moved past its TP');
  assert.equal(stateHash(engine.state), before);
  assert.ok(modify({ takeProfit: null, stopLoss: { ...preset, triggerPrice: '60000' } }).ok);
  assert.deepEqual(
    [engine.live(planId)?.takeProfit, engine.live(planId)?.stopLoss?.triggerPrice],
    [undefined, '60000'],
  );
});
