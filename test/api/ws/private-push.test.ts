/**
 * Private pushes built from one batch's events: plan orders on v2 orders-algo (the venue's
 * short plan types, hedge-mode side; spot plans with their size unit) and v3 strategy-order, filtered by category and symbol;
 * orders pushed before their fills; a v3 channel carries only the categories the key reads.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Batch, type PlanChange } from '../../../src/api/ws/batch.ts';
import { BookMirror } from '../../../src/api/ws/book-mirror.ts';
import { parseChannel, type Channel } from '../../../src/api/ws/channels.ts';
import type { Subscription } from '../../../src/api/ws/connection.ts';
import { privatePushes } from '../../../src/api/ws/private-push.ts';
import type { EngineEvent } from '../../../src/domain/events.ts';
import type { Services } from '../../../src/api/services.ts';
import { DEFAULT_PERMISSIONS } from '../../../src/domain/account.ts';
import { EngineHarness } from '../../support/engine-builders.ts';

const plan: PlanChange = {
  planId: '100000000000000042',
  clientOid: 'plan-1',
  uid: '1000000001',
  category: 'USDT-FUTURES',
  symbol: 'BTCUSDT',
  planType: 'normal_plan',
  triggerType: 'mark_price',
  triggerPrice: '61000',
  orderType: 'market',
  executePrice: '',
  size: '0.01',
  side: 'sell',
  holdSide: 'long',
  tradeSide: 'close',
  reduceOnly: false,
  posMode: 'hedge_mode',
  marginMode: 'crossed',
  marginCoin: 'USDT',
  stpMode: 'none',
  callbackRatio: '',
  status: 'executed',
  executeOrderId: '100000000000000043',
  createdTimeMs: 1_000,
  updatedTimeMs: 2_000,
};

/** A PlaceOrders command of one good-till-cancelled BTCUSDT spot limit order. */
function spotLimit(
  harness: EngineHarness,
  uid: string,
  side: 'buy' | 'sell',
  price: string,
  quantity: string,
) {
  return {
    type: 'PlaceOrders' as const,
    timeMs: harness.nowMs,
    uid,
    category: 'SPOT' as const,
    items: [
      {
        symbol: 'BTCUSDT',
        side,
        orderType: 'limit' as const,
        timeInForce: 'gtc' as const,
        stpMode: 'none' as const,
        price,
        quantity,
      },
    ],
  };
}

function subscription(
  harness: EngineHarness,
  dialect: 'v2' | 'v3',
  arg: Record<string, string>,
): Subscription {
  const channel = parseChannel(harness.state, dialect, arg) as Channel;
  assert.ok(!('code' in channel));
  const connection = { uid: plan.uid, key: { permissions: [...DEFAULT_PERMISSIONS] } } as never;
  return { channel, connection, queue: null, lastRows: new Map(), lastText: '' };
}

test('plan pushes when a PlanUpdated event is durable reach orders-algo and strategy-order', () => {
  const harness = new EngineHarness();
  const services = { sequencer: { exchange: harness.exchange } } as unknown as Services;
  const batch = new Batch(harness.state, new BookMirror());
  batch.collect({ type: 'PlanUpdated', plan } as unknown as EngineEvent);
  const algo = subscription(harness, 'v2', {
    instType: 'USDT-FUTURES',
    channel: 'orders-algo',
    instId: 'default',
  });
  const other = subscription(harness, 'v2', {
    instType: 'COIN-FUTURES',
    channel: 'orders-algo',
    instId: 'default',
  });
  const strategy = subscription(harness, 'v3', { instType: 'UTA', topic: 'strategy-order' });
  const pushes = privatePushes(services, batch, plan.uid, [algo, other, strategy], 5_000);
  assert.equal(pushes.length, 2);
  const v2 = JSON.parse(pushes[0]?.[1] as string) as { arg: unknown; data: Record<string, string>[] };
  assert.deepEqual(v2.arg, { instType: 'USDT-FUTURES', channel: 'orders-algo', instId: 'default' });
  const [row] = v2.data;
  assert.equal(row?.orderId, plan.planId);
  assert.equal(row?.planType, 'pl');
  assert.equal(row?.status, 'executed');
  assert.equal(row?.side, 'buy'); // hedge mode: the position direction, as the venue's v2 rows
  assert.equal(row?.posSide, 'long');
  assert.equal(row?.triggerTime, '2000');
  const v3 = JSON.parse(pushes[1]?.[1] as string) as { arg: unknown; data: Record<string, string>[] };
  assert.deepEqual(v3.arg, { instType: 'UTA', topic: 'strategy-order' });
  assert.equal(v3.data[0]?.executeOrderId, plan.executeOrderId);
  assert.equal(v3.data[0]?.planType, 'normal_plan');
});

test('plan pushes when a spot plan changes reach the SPOT orders-algo channel with its size unit', () => {
  const harness = new EngineHarness();
  const services = { sequencer: { exchange: harness.exchange } } as unknown as Services;
  const batch = new Batch(harness.state, new BookMirror());
  const spotPlan: PlanChange = {
    ...plan,
    category: 'SPOT',
    side: 'buy',
    orderType: 'limit',
    executePrice: '61100',
    size: '600',
    status: 'live',
    spot: { sizeUnit: 'total' },
  };
  batch.collect({ type: 'PlanUpdated', plan: spotPlan } as unknown as EngineEvent);
  const spot = subscription(harness, 'v2', { instType: 'SPOT', channel: 'orders-algo', instId: 'BTCUSDT' });
  const futures = subscription(harness, 'v2', {
    instType: 'USDT-FUTURES',
    channel: 'orders-algo',
    instId: 'default',
  });
  const pushes = privatePushes(services, batch, plan.uid, [spot, futures], 5_000);
  assert.equal(pushes.length, 1);
  const push = JSON.parse(pushes[0]?.[1] as string) as { arg: unknown; data: Record<string, string>[] };
  assert.deepEqual(push.arg, { instType: 'SPOT', channel: 'orders-algo', instId: 'BTCUSDT' });
  assert.deepEqual(push.data, [
    {
      instId: 'BTCUSDT',
      orderId: plan.planId,
      clientOid: 'plan-1',
      triggerPrice: '61000',
      triggerType: 'mark_price',
      planType: 'total',
      price: '61100',
      executePrice: '61100',
      size: '600',
      actualSize: '0',
      orderType: 'limit',
      side: 'buy',
      status: 'live',
      enterPointSource: 'API',
      stpMode: 'none',
      cTime: '1000',
      uTime: '2000',
    },
  ]);
});

test('private pushes when a batch has orders and fills send the orders first', () => {
  const harness = new EngineHarness();
  const maker = harness.account({ BTC: '1' });
  const taker = harness.account({ USDT: '100000' });
  const services = { sequencer: { exchange: harness.exchange } } as unknown as Services;
  const batch = new Batch(harness.state, new BookMirror());
  harness.place(maker, 'SPOT', { side: 'sell', price: '60000', quantity: '0.01' });
  const placed = harness.run(spotLimit(harness, taker, 'buy', '60000', '0.01'));
  for (const event of placed.events) batch.collect(event);
  const fill = subscription(harness, 'v2', { instType: 'SPOT', channel: 'fill', instId: 'default' });
  const orders = subscription(harness, 'v2', { instType: 'SPOT', channel: 'orders', instId: 'default' });
  fill.connection = { uid: taker } as never;
  orders.connection = { uid: taker } as never;
  const pushes = privatePushes(services, batch, taker, [fill, orders], 1);
  assert.deepEqual(
    pushes.map(([sub]) => sub.channel.name),
    ['orders', 'fill'],
  );
  const [row] = (JSON.parse(pushes[0]?.[1] as string) as { data: Record<string, string>[] }).data;
  assert.equal(row?.status, 'filled');
  assert.equal(row?.tradeScope, 'T');
});

test('a batch when only one account is watched gathers that account alone and still keeps the book mirror', () => {
  const harness = new EngineHarness();
  const maker = harness.account({ BTC: '1' });
  const taker = harness.account({ USDT: '100000' });
  const mirror = new BookMirror();
  const batch = new Batch(harness.state, mirror, (uid) => uid === taker);
  const resting = harness.run(spotLimit(harness, maker, 'sell', '61000', '0.02'));
  const taking = harness.run(spotLimit(harness, taker, 'buy', '61000', '0.01'));
  for (const event of [...resting.events, ...taking.events]) batch.collect(event);
  assert.deepEqual([...batch.touchedUids], [taker]);
  assert.deepEqual([...batch.orders.keys()], [taker]);
  assert.deepEqual([...batch.fills.keys()], [taker]);
  assert.equal(batch.orders.get(taker)?.[0]?.latestFill?.uid, taker);
  const book = mirror.of('SPOT:BTCUSDT');
  assert.ok(book.closeBatch(), "the maker's resting order, unwatched, still moved the mirror");
  const instrument = harness.state.instruments.get('SPOT:BTCUSDT');
  assert.ok(instrument);
  assert.deepEqual(book.top(instrument, 1).asks, [['61000', '0.01']]);
});

test('v3 order pushes when the key reads only spot leave the futures orders out', () => {
  const harness = new EngineHarness();
  const trader = harness.account({ USDT: '100000' }, 'unified', 'unified');
  const services = { sequencer: { exchange: harness.exchange } } as unknown as Services;
  const batch = new Batch(harness.state, new BookMirror());
  for (const category of ['SPOT', 'USDT-FUTURES'] as const) {
    const placed = harness.run({ ...spotLimit(harness, trader, 'buy', '50000', '0.01'), category });
    for (const event of placed.events) batch.collect(event);
  }
  const categoriesPushed = (permissions: string[]) => {
    const sub = subscription(harness, 'v3', { instType: 'UTA', topic: 'order' });
    sub.connection = { uid: trader, key: { permissions } } as never;
    return privatePushes(services, batch, trader, [sub], 1).flatMap(([, text]) =>
      (JSON.parse(text) as { data: { category: string }[] }).data.map((row) => row.category),
    );
  };
  assert.deepEqual(categoriesPushed(['stow', 'stor']), ['SPOT']);
  assert.deepEqual(categoriesPushed(['coor']), ['USDT-FUTURES']);
  assert.deepEqual(categoriesPushed([...DEFAULT_PERMISSIONS]).sort(), ['SPOT', 'USDT-FUTURES']);
  assert.deepEqual(categoriesPushed(['wtor']), []);
});
