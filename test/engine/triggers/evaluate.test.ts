/**
 * Trigger evaluation in the engine: when plans fire, at what price they fill, in which order,
 * and the loop bound. BTCUSDT USDT-M; books are kept one-sided where the mark price matters,
 * so the mark equals the index the test sets (engine/futures/mark.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_TRIGGER_PASSES } from '../../../src/engine/triggers/evaluate.ts';
import { money } from '../../support/engine-builders.ts';
import { TriggerHarness } from './support.ts';

test('stop-market on mark price fires when the mark touches the trigger and fills at the bid', () => {
  const engine = new TriggerHarness();
  const trader = engine.trader();
  engine.open(trader, 'long', '0.1', '60000');
  engine.rest('buy', '58000', '1');
  const planId = engine.plan(trader, { triggerPrice: '59000', reduceOnly: true });

  engine.setIndex('59100');
  assert.equal(engine.live(planId)?.status, 'live', 'not touched above the trigger');
  engine.setIndex('59000');
  const report = engine.report(planId);
  assert.equal(report?.status, 'executed');
  const order = engine.lastOrder(report?.executeOrderId ?? '');
  assert.equal(order?.status, 'filled');
  assert.equal(order?.avgPrice, '58000', 'a market order fills at the book, not at the trigger');
  assert.equal(order?.source, 'plan');
  assert.equal(engine.position(trader, 'long'), undefined, 'reduce-only closed the long');
  assert.equal(engine.live(planId), undefined);
  engine.assertConserved();
});

test('price gapping through the trigger fires at the first evaluation and fills at the market', () => {
  const engine = new TriggerHarness();
  const trader = engine.trader();
  engine.open(trader, 'long', '0.1', '60000');
  engine.rest('buy', '56500', '1');
  const planId = engine.plan(trader, { triggerPrice: '59000', reduceOnly: true });
  engine.setIndex('57000');
  const order = engine.lastOrder(engine.report(planId)?.executeOrderId ?? '');
  assert.equal(order?.avgPrice, '56500');
  // Long 0.1 from 60000 closed at 56500: −350 PnL, taker fee 5650 × 0.0006 = 3.39.
  assert.equal(order?.futures?.realisedPnl, '-350');
  assert.equal(order?.fee, '3.39');
});

test('stop-limit on last price places a limit order at its price when a trade touches the trigger', () => {
  const engine = new TriggerHarness();
  const trader = engine.trader();
  const planId = engine.plan(trader, {
    side: 'buy',
    triggerType: 'fill_price',
    triggerPrice: '60500',
    orderType: 'limit',
    price: '60600',
    size: '0.01',
  });
  // A trade at 60400 leaves it waiting; one at 60500 fires it.
  const maker = engine.rest('sell', '60400', '0.01');
  engine.order(engine.trader(), { side: 'buy', price: '60400', quantity: '0.01' });
  assert.equal(engine.live(planId)?.status, 'live');
  engine.order(maker, { side: 'sell', price: '60500', quantity: '0.01' });
  engine.order(engine.trader(), { side: 'buy', price: '60500', quantity: '0.01' });
  const report = engine.report(planId);
  assert.equal(report?.status, 'executed');
  const order = engine.state.orders.get(report?.executeOrderId ?? '');
  assert.equal(order?.status, 'live', 'nothing to buy at 60600: the limit rests');
  assert.equal(order?.priceTicks, 606000);
  assert.equal(order?.source, 'plan');
  // It rests as a limit buy that holds margin only now: 606 × (1.01 / 20 + 0.0006 × 1.005).
  assert.equal(order?.holdAmount, money('30.968418'));
});

test('plans touched by one move fire farthest past the trigger first, ties by creation', () => {
  const engine = new TriggerHarness();
  const trader = engine.trader();
  engine.rest('buy', '57000', '10');
  const nearOld = engine.plan(trader, { triggerPrice: '59500', size: '0.01' });
  const far = engine.plan(trader, { triggerPrice: '59000', size: '0.01' });
  const nearNew = engine.plan(trader, { triggerPrice: '59500', size: '0.01' });
  const untouched = engine.plan(trader, { triggerPrice: '57500', size: '0.01' });
  engine.setIndex('58000');
  assert.deepEqual(engine.executedOrder(), [nearOld, nearNew, far]);
  assert.equal(engine.live(untouched)?.status, 'live');
});

test('a plan is checked again at its turn and stays live when an earlier fire moved the price back', () => {
  const engine = new TriggerHarness();
  const long = engine.trader();
  engine.open(long, 'long', '0.01', '60000');
  const takeProfit = engine.plan(long, {
    planType: 'pos_profit',
    posSide: 'long',
    triggerType: 'fill_price',
    triggerPrice: '60100',
  });
  const buyer = engine.trader();
  const buyStop = engine.plan(buyer, {
    side: 'buy',
    triggerType: 'fill_price',
    triggerPrice: '60150',
    size: '0.01',
  });
  engine.rest('buy', '59900', '1');
  const seller = engine.rest('sell', '60200', '0.01');
  void seller;
  // A trade at 60200 touches both: the TP (100 past) before the buy stop (50 past). The TP's
  // market sell trades at 59900, so the buy stop is no longer touched at its turn.
  engine.order(engine.trader(), { side: 'buy', price: '60200', quantity: '0.01' });
  assert.deepEqual(engine.executedOrder(), [takeProfit]);
  assert.equal(engine.live(buyStop)?.status, 'live');
  assert.equal(engine.position(long, 'long'), undefined);
});

test('orders placed by triggers touch further plans in the same command, up to the pass bound', () => {
  const engine = new TriggerHarness();
  const trader = engine.trader();
  const count = MAX_TRIGGER_PASSES + 2;
  const stops: string[] = [];
  for (let step = 1; step <= count; step += 1) {
    engine.rest('sell', String(60000 + 100 * step), '0.01');
    stops.push(
      engine.plan(trader, {
        side: 'buy',
        triggerType: 'fill_price',
        triggerPrice: String(60000 + 100 * step),
        size: '0.01',
      }),
    );
  }
  engine.rest('sell', String(60000 + 100 * (count + 1)), '0.01');
  // The first trade (60100) touches stop 1; each stop's market buy lifts the next ask and
  // touches the next stop: one pass per link, MAX_TRIGGER_PASSES links in this command.
  engine.order(engine.trader(), { side: 'buy', price: '60100', quantity: '0.01' });
  assert.deepEqual(engine.executedOrder(), stops.slice(0, MAX_TRIGGER_PASSES));
  assert.equal(
    engine.live(stops[MAX_TRIGGER_PASSES] ?? '')?.status,
    'live',
    'touched, left for the next step',
  );
  engine.setIndex('60000');
  assert.deepEqual(engine.executedOrder(), stops);
});

test('trailing sell activates at its trigger, ratchets up through three highs and fires on the retrace', () => {
  const engine = new TriggerHarness();
  const trader = engine.trader();
  engine.open(trader, 'long', '0.1', '60000');
  engine.rest('buy', '62600', '1');
  const planId = engine.plan(trader, {
    planType: 'track_plan',
    triggerPrice: '61000',
    callbackRatio: '2',
    reduceOnly: true,
  });
  engine.setIndex('60900');
  assert.equal(engine.live(planId)?.trailing?.activated, false);
  engine.setIndex('61000');
  assert.equal(engine.live(planId)?.trailing?.extremePrice, money('61000'), 'activated at the trigger');
  for (const high of ['62000', '63000', '64000']) engine.setIndex(high);
  assert.equal(engine.live(planId)?.trailing?.extremePrice, money('64000'));
  // Stop = 64000 × 0.98 = 62720: 63000 and 62721 hold, 62720 fires.
  for (const price of ['63000', '62721']) engine.setIndex(price);
  assert.equal(engine.live(planId)?.status, 'live');
  engine.setIndex('62720');
  const order = engine.lastOrder(engine.report(planId)?.executeOrderId ?? '');
  assert.equal(order?.avgPrice, '62600');
  assert.equal(order?.futures?.realisedPnl, '260', '(62600 − 60000) × 0.1');
});

test('trailing buy mirrors the sell: follows the lows and fires on the rise', () => {
  const engine = new TriggerHarness();
  const trader = engine.trader();
  engine.open(trader, 'short', '0.1', '60000');
  engine.rest('sell', '57300', '1');
  const planId = engine.plan(trader, {
    planType: 'track_plan',
    side: 'buy',
    triggerPrice: '59000',
    callbackRatio: '2',
    reduceOnly: true,
  });
  for (const low of ['59000', '58000', '57000', '56000']) engine.setIndex(low);
  assert.equal(engine.live(planId)?.trailing?.extremePrice, money('56000'));
  // Stop = 56000 × 1.02 = 57120.
  engine.setIndex('57119.9');
  assert.equal(engine.live(planId)?.status, 'live');
  engine.setIndex('57120');
  const order = engine.lastOrder(engine.report(planId)?.executeOrderId ?? '');
  assert.equal(order?.avgPrice, '57300');
  assert.equal(order?.futures?.realisedPnl, '270', '(60000 − 57300) × 0.1');
});

test('a plan whose order is refused ends fail_execute with the reason', () => {
  const engine = new TriggerHarness();
  const poor = engine.trader('10');
  engine.rest('sell', '59000', '1');
  const noMargin = engine.plan(poor, { side: 'buy', triggerPrice: '61000', size: '0.1' });
  const trader = engine.trader();
  const funded = engine.plan(trader, { side: 'buy', triggerPrice: '61000', size: '0.01' });
  engine.setIndex('61000');
  assert.equal(engine.report(noMargin)?.status, 'fail_execute');
  assert.equal(engine.report(noMargin)?.failCode, 'OPEN_SIZE_EXCEEDED');
  assert.equal(
    engine.balance(poor, 'USDT', 'usdt_futures').available,
    money('10'),
    'nothing held or charged',
  );
  assert.equal(engine.report(funded)?.status, 'executed');

  const second = engine.plan(trader, { side: 'buy', triggerPrice: '62000', size: '0.01' });
  engine.ok({
    type: 'PatchInstrument',
    timeMs: engine.nowMs,
    category: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    changes: { status: 'offline' },
  });
  engine.setIndex('62000');
  assert.equal(engine.report(second)?.status, 'fail_execute');
  assert.equal(engine.report(second)?.failCode, 'SYMBOL_OFFLINE');
});

test('a plan whose trigger equals the price when placed is touched and fires in the placing command', () => {
  const engine = new TriggerHarness();
  const trader = engine.trader();
  engine.rest('sell', '60100', '1');
  const planId = engine.plan(trader, { side: 'buy', triggerPrice: '60000', size: '0.01' });
  assert.equal(engine.report(planId)?.status, 'executed');
  assert.equal(engine.lastOrder(engine.report(planId)?.executeOrderId ?? '')?.avgPrice, '60100');
});
