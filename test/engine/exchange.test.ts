/**
 * The Exchange around its commands: the open orders' Map is renewed (same entries, same
 * order, a fresh Map) once as many orders have been opened since the last renewal as it holds
 * (at least 4,096), which keeps V8 from promoting every short-lived order after a quiet spell
 * (exchange.ts, renewOpenOrders). Nothing a command sees or does may change with it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertReplaysExactly, EngineHarness } from '../support/engine-builders.ts';

/** 50 orders opened by one command, each filled whole at once (a sell resting, a buy taking it). */
function crossingBatch(engine: EngineHarness, uid: string): void {
  const items = [];
  for (let pair = 0; pair < 25; pair += 1) {
    items.push({ side: 'sell' as const, price: '60000', quantity: '0.0001' });
    items.push({ side: 'buy' as const, price: '60000', quantity: '0.0001' });
  }
  const results = engine.place(uid, 'SPOT', ...items);
  assert.ok(results.every((result) => result.orderId !== ''));
}

test('the open orders move to a fresh Map, in the same order, once 4,096 orders have been opened', () => {
  const engine = new EngineHarness();
  const uid = engine.account({ USDT: '1000000', BTC: '100' });
  engine.place(
    uid,
    'SPOT',
    { side: 'buy', price: '50000', quantity: '0.001' },
    { side: 'sell', price: '70000', quantity: '0.001' },
    { side: 'buy', price: '51000', quantity: '0.002' },
  );
  const first = engine.state.orders;
  const openIds = [...first.keys()];
  assert.equal(openIds.length, 3);

  // 4,050 more orders (4,053 opened in all): not yet.
  for (let batch = 0; batch < 81; batch += 1) crossingBatch(engine, uid);
  assert.equal(engine.state.orders, first);

  // The command after the 4,096th order opened finds a fresh Map with the same entries.
  crossingBatch(engine, uid);
  engine.place(uid, 'SPOT', { side: 'sell', price: '90000', quantity: '0.001' });
  const renewed = engine.state.orders;
  assert.notEqual(renewed, first);
  assert.deepEqual([...renewed.keys()].slice(0, 3), openIds);
  assert.equal(renewed.size, 4);
  for (const id of openIds) assert.equal(renewed.get(id), first.get(id));

  // Orders rest, fill and cancel through the new Map as through the old.
  const cancelled = openIds[0] as string;
  engine.ok({ type: 'CancelOrders', timeMs: engine.nowMs, uid, items: [{ orderId: cancelled }] });
  assert.equal(engine.state.orders.has(cancelled), false);
  engine.assertConserved();
  assertReplaysExactly(engine);
});
