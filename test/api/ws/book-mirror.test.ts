/**
 * The durable book mirror against the engine's own books: a seeded stream of limit, IOC,
 * post-only and market orders, amends and cancels from two accounts, each command's
 * OrderUpdated events applied to the mirror, and after every command the mirror's levels
 * (formatted) must equal the REST depth of the engine's books.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BookMirror } from '../../../src/api/ws/book-mirror.ts';
import type { EngineEvent } from '../../../src/domain/events.ts';
import { depthOf } from '../../../src/market/market-data.ts';
import { EngineHarness } from '../../support/engine-builders.ts';
import { Random } from '../../support/random.ts';

function apply(harness: EngineHarness, mirror: BookMirror, events: readonly EngineEvent[]) {
  for (const event of events) if (event.type === 'OrderUpdated') mirror.apply(harness.state, event.order);
}

test('mirror when fed only OrderUpdated events equals the engine depth after every command', () => {
  const random = new Random(20_261_101);
  const harness = new EngineHarness();
  const mirror = new BookMirror();
  const traders = [
    harness.account({ USDT: '10000000', BTC: '1000' }),
    harness.account({ USDT: '10000000', BTC: '1000' }),
  ];
  const instrument = harness.state.instruments.get('SPOT:BTCUSDT');
  assert.ok(instrument);
  const open: { uid: string; orderId: string }[] = [];
  for (let step = 0; step < 400; step += 1) {
    const uid = random.pick(traders);
    const roll = random.next();
    let events: readonly EngineEvent[];
    if (roll < 0.15 && open.length > 0) {
      const target = open.splice(random.int(0, open.length - 1), 1)[0] as { uid: string; orderId: string };
      events = harness.run({
        type: 'CancelOrders',
        timeMs: harness.nowMs,
        uid: target.uid,
        items: [{ orderId: target.orderId }],
      }).events;
    } else if (roll < 0.25 && open.length > 0) {
      const target = random.pick(open);
      events = harness.run({
        type: 'ModifyOrder',
        timeMs: harness.nowMs,
        uid: target.uid,
        order: { orderId: target.orderId },
        price: String(59_990 + random.int(0, 20)),
        quantity: `0.0${random.int(1, 9)}`,
        autoCancel: false,
      }).events;
    } else {
      const market = roll > 0.95;
      const side = random.bool() ? 'buy' : 'sell';
      const result = harness.run({
        type: 'PlaceOrders',
        timeMs: harness.nowMs,
        uid,
        category: 'SPOT',
        items: [
          {
            symbol: 'BTCUSDT',
            side,
            orderType: market ? 'market' : 'limit',
            timeInForce: random.pick(['gtc', 'gtc', 'gtc', 'ioc', 'post_only'] as const),
            stpMode: 'none',
            quantity: `0.00${random.int(1, 9)}`,
            ...(market ? {} : { price: String(59_990 + random.int(0, 20)) }),
          },
        ],
      });
      events = result.events;
      for (const event of events) {
        if (event.type === 'OrderUpdated' && event.order.status === 'live')
          open.push({ uid: event.order.uid, orderId: event.order.orderId });
      }
    }
    apply(harness, mirror, events);
    harness.nowMs += 1;
    const book = mirror.of('SPOT:BTCUSDT');
    const expected = depthOf(harness.exchange, instrument, 1000);
    assert.deepEqual(
      book.top(instrument, 1000),
      { bids: expected.bids, asks: expected.asks },
      `step ${step}`,
    );
  }
});

test('mirror when seeded from state equals the engine depth, and a repeated view changes nothing', () => {
  const harness = new EngineHarness();
  const uid = harness.account({ USDT: '100000', BTC: '10' });
  harness.place(
    uid,
    'SPOT',
    { side: 'buy', price: '59000', quantity: '0.5' },
    { side: 'sell', price: '61000', quantity: '0.25' },
    { side: 'sell', price: '61000', quantity: '0.5' },
  );
  const instrument = harness.state.instruments.get('SPOT:BTCUSDT');
  assert.ok(instrument);
  const mirror = new BookMirror();
  mirror.seed(harness.state);
  const book = mirror.of('SPOT:BTCUSDT');
  assert.deepEqual(book.top(instrument, 10), {
    bids: [['59000', '0.5']],
    asks: [['61000', '0.75']],
  });
  const seq = book.seq;
  const [order] = harness.state.orders.values();
  assert.ok(order);
  const { events } = harness.run({
    type: 'CancelOrders',
    timeMs: harness.nowMs,
    uid,
    items: [{ orderId: order.orderId }],
  });
  apply(harness, mirror, events);
  apply(harness, mirror, events);
  assert.equal(book.closeBatch(), true);
  assert.equal(book.seq, seq + 1);
  assert.deepEqual(book.takeChanges(instrument), { bids: [['59000', '0']], asks: [] });
  assert.equal(book.closeBatch(), false);
});
