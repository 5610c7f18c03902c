/**
 * An order's row is updated in place on SQLite (schema.ts, Table.updatedColumns): only status,
 * updated_ms and body are written again when an order changes, so the other columns must keep
 * the values of the order's first row. This runs an order through every kind of change the
 * engine makes (a fill in parts, a modify of price and size, a cancel, a replace, an IOC's
 * cancel, a market order) and checks that each order's later views keep those columns.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OrderView } from '../../src/domain/order-view.ts';
import { keyColumns, tableOf } from '../../src/persistence/schema.ts';
import { orderItem } from '../support/engine-builders.ts';
import { tradingWorkload } from '../contracts/store-workload.ts';

/** The orders table's columns that are neither the key nor updated, by the view field that fills each. */
const FIXED: Record<string, keyof OrderView> = {
  uid: 'uid',
  client_oid: 'clientOid',
  category: 'category',
  symbol: 'symbol',
  created_ms: 'createdTimeMs',
};

test('the orders table updates in place only columns outside the fixed ones, and names every other column here', () => {
  const orders = tableOf('orders');
  const updated = orders.updatedColumns ?? [];
  assert.deepEqual([...updated].sort(), ['body', 'status', 'updated_ms']);
  const fixed = orders.columns
    .map(([name]) => name)
    .filter((name) => !updated.includes(name) && !keyColumns(orders).includes(name));
  assert.deepEqual(fixed.sort(), Object.keys(FIXED).sort());
});

test('an order through fills, modify, cancel and replace keeps the columns its row never rewrites', () => {
  const { engine, buyer, seller } = tradingWorkload();
  const tick = () => (engine.nowMs += 1_000);
  const place = (uid: string, items: ReturnType<typeof orderItem>[]) =>
    engine.run({ type: 'PlaceOrders', timeMs: tick(), uid, category: 'SPOT', items });
  place(buyer, [orderItem({ side: 'buy', price: '58000', quantity: '0.5', clientOid: 'm1' })]);
  engine.run({
    type: 'ModifyOrder',
    timeMs: tick(),
    uid: buyer,
    order: { clientOid: 'm1' },
    price: '58100',
    quantity: '0.4',
    autoCancel: false,
  });
  place(seller, [orderItem({ side: 'sell', price: '58100', quantity: '0.1', clientOid: 'p1' })]);
  engine.run({
    type: 'ReplaceOrder',
    timeMs: tick(),
    uid: buyer,
    order: { clientOid: 'm1' },
    price: '58050',
    newClientOid: 'm2',
  });
  place(seller, [orderItem({ side: 'sell', price: '58050', quantity: '0.05', clientOid: 'p2' })]);
  place(buyer, [orderItem({ side: 'buy', price: '1000', quantity: '0.01' })]);
  engine.run({ type: 'CancelOrders', timeMs: tick(), uid: buyer, items: [{ clientOid: 'm2' }] });
  place(seller, [orderItem({ side: 'sell', price: '70000', quantity: '0.01', timeInForce: 'ioc' })]);

  const first = new Map<string, OrderView>();
  let changes = 0;
  for (const event of engine.entries.flatMap((entry) => entry.events)) {
    if (event.type !== 'OrderUpdated') continue;
    const view = { ...event.order };
    const before = first.get(view.orderId);
    if (!before) {
      first.set(view.orderId, view);
      continue;
    }
    changes += 1;
    for (const field of Object.values(FIXED))
      assert.equal(view[field], before[field], `${view.orderId} ${String(field)}`);
  }
  assert.ok(first.size >= 8, `orders seen: ${first.size}`);
  assert.ok(changes >= 5, `later rows of an order: ${changes}`);
});
