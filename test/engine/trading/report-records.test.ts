/**
 * Order and fill events as the engine emits them (engine/trading/report-records.ts): formatted
 * on first read, they read as the views of their moment even after later commands changed the
 * order, and their JSON, codec text and projection rows are those of the plain events that
 * journal entries and streams written before carry.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Command, OrderRequest } from '../../../src/domain/commands.ts';
import type { EngineEvent } from '../../../src/domain/events.ts';
import { instrumentKey } from '../../../src/domain/instrument.ts';
import type { OrderView } from '../../../src/domain/order-view.ts';
import { orderView } from '../../../src/engine/trading/order-view.ts';
import { FillRecordedRecord, OrderUpdatedRecord } from '../../../src/engine/trading/report-records.ts';
import { decode, encode } from '../../../src/persistence/codec.ts';
import { rowsOf } from '../../../src/persistence/projection.ts';
import { EngineHarness, orderItem } from '../../support/engine-builders.ts';

/** A good-till-cancelled BTCUSDT limit order item. */
function limitItem(side: 'buy' | 'sell', price: string, quantity: string) {
  return orderItem({ side, price, quantity });
}

/** A spot place-batch of `items` by `uid` at the harness's time, and the ids it gave each item ('' when refused). */
function placeSpot(engine: EngineHarness, uid: string, items: OrderRequest[]) {
  const command: Command = { type: 'PlaceOrders', timeMs: engine.nowMs, uid, category: 'SPOT', items };
  const result = engine.run(command);
  const ids = (result.outcome as { value: { orderId: string }[] }).value.map((item) => item.orderId);
  return { ...result, ids };
}

function placeCommand(
  engine: EngineHarness,
  uid: string,
  side: 'buy' | 'sell',
  price: string,
  quantity: string,
) {
  return placeSpot(engine, uid, [limitItem(side, price, quantity)]);
}

/** The plain event a record stands for, built field by field (as a journal entry decodes). */
function plain(event: EngineEvent): EngineEvent {
  if (event.type === 'OrderUpdated')
    return { type: event.type, order: { ...event.order }, created: event.created };
  if (event.type === 'FillRecorded') return { type: event.type, fill: { ...event.fill } };
  return event;
}

test('report records when read after later commands show the order and fill of their own moment', () => {
  const engine = new EngineHarness();
  const seller = engine.account({ BTC: '1' });
  const buyer = engine.account({ USDT: '100000' });
  const instrument = engine.state.instruments.get(instrumentKey('SPOT', 'BTCUSDT'));
  assert.ok(instrument);

  // The ask rests whole; its view of that moment is taken at once, before anything reads the event.
  const placed = placeCommand(engine, seller, 'sell', '60000', '0.5');
  const askEvent = placed.events.find((event) => event.type === 'OrderUpdated');
  assert.ok(askEvent instanceof OrderUpdatedRecord);
  const askId = placed.ids[0] ?? '';
  const askLive = engine.state.orders.get(askId);
  assert.ok(askLive);
  const askAtPlacing: OrderView = orderView(instrument, askLive);

  // Two takers: 0.2 then 0.1 BTC at 60000. The ask changes in place after each.
  engine.nowMs += 1_000;
  const first = placeCommand(engine, buyer, 'buy', '60100', '0.2');
  const firstFills = first.events.filter((event) => event.type === 'FillRecorded');
  const firstAsk = first.events.find((event) => event.type === 'OrderUpdated' && !event.created);
  const askAfterFirst = orderView(instrument, askLive);
  engine.nowMs += 1_000;
  placeCommand(engine, buyer, 'buy', '60100', '0.1');

  // Read only now: each record shows its moment.
  assert.deepEqual(askEvent.order, askAtPlacing);
  assert.equal(askEvent.order.status, 'live');
  assert.equal(askEvent.order.cumExecQty, '0');
  assert.equal(askEvent.created, true);
  assert.ok(firstAsk && firstAsk.type === 'OrderUpdated');
  assert.deepEqual(firstAsk.order, askAfterFirst);
  // 0.2 of 0.5 filled at 60000: 12000 USDT, the maker's 0.1 % fee 12 USDT.
  assert.equal(firstAsk.order.status, 'partially_filled');
  assert.equal(firstAsk.order.cumExecQty, '0.2');
  assert.equal(firstAsk.order.cumExecValue, '12000');
  assert.equal(firstAsk.order.fee, '12');
  assert.equal(firstAsk.order.avgPrice, '60000');
  assert.equal(askLive.filledLots > 0 && orderView(instrument, askLive).cumExecQty, '0.3');

  assert.equal(firstFills.length, 2);
  const makerFill = firstFills.find(
    (event) => event.type === 'FillRecorded' && event.fill.tradeScope === 'maker',
  );
  assert.ok(makerFill instanceof FillRecordedRecord);
  assert.deepEqual(
    { ...makerFill.fill },
    {
      execId: makerFill.fill.execId,
      tradeId: makerFill.fill.tradeId,
      orderId: askId,
      clientOid: askId,
      uid: seller,
      category: 'SPOT',
      symbol: 'BTCUSDT',
      orderType: 'limit',
      side: 'sell',
      execPrice: '60000',
      execQty: '0.2',
      execValue: '12000',
      tradeScope: 'maker',
      tradeSide: 'open',
      feeCoin: 'USDT',
      fee: '12',
      execPnl: '0',
      timeMs: engine.nowMs - 1_000,
    },
  );
  // Formatted once: the same object on every read.
  assert.equal(makerFill.fill, makerFill.fill);
  assert.equal(askEvent.order, askEvent.order);
});

test('report records when encoded give the plain events’ text, decode and project as they do', () => {
  const engine = new EngineHarness();
  const seller = engine.account({ BTC: '1' });
  const buyer = engine.account({ USDT: '100000' });
  placeCommand(engine, seller, 'sell', '60000', '0.5');
  const { events } = placeCommand(engine, buyer, 'buy', '60100', '0.2');
  assert.ok(events.some((event) => event instanceof OrderUpdatedRecord));
  assert.ok(events.some((event) => event instanceof FillRecordedRecord));
  const plainEvents = events.map(plain);

  // Journal entries and streamed entries carry events through the codec (bills hold bigints).
  const entry = { seq: 7, events };
  const plainEntry = { seq: 7, events: plainEvents };
  assert.equal(encode(entry), encode(plainEntry));
  assert.equal(
    JSON.stringify(events.filter((event) => event.type !== 'BillPosted')),
    JSON.stringify(plainEvents.filter((event) => event.type !== 'BillPosted')),
  );
  assert.deepEqual(decode(encode(entry)), plainEntry);
  // Projection rows (and so the wire bodies read back from them) are the plain events' rows.
  for (const [index, event] of events.entries()) {
    assert.deepEqual(rowsOf(event), rowsOf(plainEvents[index] as EngineEvent), event.type);
  }
});

test('order updates when a batch touches an older order between new ones mark created only the new ones', () => {
  const engine = new EngineHarness();
  const seller = engine.account({ BTC: '1' });
  const trader = engine.account({ BTC: '1', USDT: '100000' });
  const older = placeCommand(engine, seller, 'sell', '60000', '0.1');
  const olderId = older.ids[0] ?? '';
  engine.nowMs += 1_000;
  // A buy that takes the older ask (touched after the buy opens), a refused item (opens
  // nothing), a sell that rests, and a buy that takes it.
  const batch = placeSpot(engine, trader, [
    limitItem('buy', '60000', '0.1'),
    limitItem('buy', '60000', '0.0000001'),
    limitItem('sell', '60010', '0.2'),
    limitItem('buy', '60010', '0.2'),
  ]);
  const placed = batch.ids;
  assert.equal(placed[1], '');
  const updates = batch.events.flatMap((event) =>
    event.type === 'OrderUpdated' ? [[event.order.orderId, event.created] as const] : [],
  );
  assert.deepEqual(updates, [
    [placed[0], true],
    [olderId, false],
    [placed[2], true],
    [placed[3], true],
  ]);
});

test('order updates when a batch touches twenty-one orders, some twice, come once each, in first-touched order', () => {
  const engine = new EngineHarness();
  const seller = engine.account({ BTC: '1' });
  const trader = engine.account({ USDT: '100000' });
  // Twenty asks a tick apart: nineteen of 0.01, the last of 0.02.
  const askIds = placeSpot(
    engine,
    seller,
    Array.from({ length: 20 }, (_, index) =>
      limitItem('sell', String(60_000 + index), index === 19 ? '0.02' : '0.01'),
    ),
  ).ids;
  engine.nowMs += 1_000;
  // A buy that sweeps nineteen asks (the taker touched at each fill), then two buys that
  // each take half of the last ask (touched twice).
  const batch = placeSpot(engine, trader, [
    limitItem('buy', '60019', '0.19'),
    limitItem('buy', '60019', '0.01'),
    limitItem('buy', '60019', '0.01'),
  ]);
  const placed = batch.ids;
  const updates = batch.events.flatMap((event) =>
    event.type === 'OrderUpdated' ? [[event.order.orderId, event.created, event.order.status] as const] : [],
  );
  assert.deepEqual(updates, [
    [placed[0], true, 'filled'],
    ...askIds.slice(0, 19).map((orderId) => [orderId, false, 'filled'] as const),
    [placed[1], true, 'filled'],
    [askIds[19], false, 'filled'],
    [placed[2], true, 'filled'],
  ]);
});
