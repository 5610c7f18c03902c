/**
 * Projection rows (persistence/projection.ts, journal-record.ts): the array rows projectEvent
 * builds for the frequent events are the named rows rowsOf describes, column for column, and
 * rowsOfEntries writes each journal row with its body and checksum.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../src/domain/events.ts';
import { encode } from '../../src/persistence/codec.ts';
import { folded } from '../../src/persistence/fold-rows.ts';
import { checksumOf, rowsOfEntries } from '../../src/persistence/journal-record.ts';
import { projectEvent, RowBatch, rowsOf, targetOf, type Value } from '../../src/persistence/projection.ts';
import { orderOfRow } from '../../src/persistence/view-bodies.ts';
import { tradingWorkload } from '../contracts/store-workload.ts';

/** Rows of a batch by target, as `mode table` → rows. */
function byTarget(batch: RowBatch): Record<string, Value[][]> {
  const out: Record<string, Value[][]> = {};
  for (const target of batch.targets) out[`${target.mode} ${target.table.name}`] = batch.rowsOf(target);
  return out;
}

const position = {
  type: 'PositionClosed',
  position: {
    positionId: 'p1',
    uid: 'u1',
    category: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    holdSide: 'long',
    openTotalPos: '0.5',
    createdTimeMs: 1_700_000_000_000,
    updatedTimeMs: 1_700_000_000_123,
    size: '0',
    note: 'quote " backslash \\ newline \n',
  },
} as unknown as EngineEvent;

const plan = {
  type: 'PlanUpdated',
  plan: {
    planId: 'plan1',
    uid: 'u1',
    clientOid: 'c-1',
    category: 'USDT-FUTURES',
    symbol: 'ETHUSDT',
    planType: 'normal_plan',
    status: 'live',
    createdTimeMs: 1_700_000_000_000,
    updatedTimeMs: 1_700_000_000_001,
    triggerPrice: '2000',
  },
} as unknown as EngineEvent;

test('projectEvent when given each event of a trading stream gives the rows rowsOf names, column for column', () => {
  const { engine } = tradingWorkload();
  const events = [...engine.entries.flatMap((entry) => entry.events), position, plan];
  const types = new Set(events.map((event) => event.type));
  for (const type of ['OrderUpdated', 'FillRecorded', 'BillPosted', 'TradeRecorded', 'FundingRecorded'])
    assert.ok(types.has(type as EngineEvent['type']), `the stream has ${type}`);
  for (const event of events) {
    const fast = new RowBatch();
    projectEvent(fast, event);
    const named = new RowBatch();
    for (const write of rowsOf(event)) named.addWrite(write);
    assert.deepEqual(byTarget(fast), byTarget(named), event.type);
    for (const target of fast.targets) {
      for (const row of fast.rowsOf(target)) {
        assert.equal(row.length, target.table.columns.length, `${target.table.name} row width`);
        for (const value of row) assert.ok(value !== undefined, `${target.table.name}: no undefined value`);
      }
    }
  }
});

test('rowsOfEntries when given entries writes each journal row with its encoded body and checksum, then its projection rows', () => {
  const { engine } = tradingWorkload();
  const batch = rowsOfEntries(engine.entries);
  const journal = batch.rowsOf(targetOf('journal', 'insert'));
  assert.equal(journal.length, engine.entries.length);
  for (const [index, entry] of engine.entries.entries()) {
    const body = encode(entry.command);
    assert.deepEqual(journal[index], [
      entry.seq,
      entry.command.timeMs,
      entry.command.type,
      body,
      checksumOf(body),
    ]);
  }
  // Orders the entries open: one insert row each, holding the order's last state; updates of
  // orders opened before them: upsert rows, in order.
  const updates = engine.entries
    .flatMap((entry) => entry.events)
    .filter((event) => event.type === 'OrderUpdated');
  const opened = new Map<string, unknown>();
  const later: unknown[] = [];
  for (const event of updates) {
    if (event.created || opened.has(event.order.orderId)) opened.set(event.order.orderId, event.order);
    else later.push(event.order);
  }
  assert.ok(opened.size > 0, 'the workload opens orders');
  const ordersOf = (target: ReturnType<typeof targetOf>) =>
    batch
      .rowsOf(target)
      .map((row) => orderOfRow(Object.fromEntries(target.columns.map((name, at) => [name, row[at]]))));
  assert.deepEqual(ordersOf(targetOf('orders', 'insert')), [...opened.values()]);
  assert.deepEqual(ordersOf(targetOf('orders', 'upsert')), later);
});

test('RowBatch when given rows of several targets keeps targets in first-use order and rows in order', () => {
  const batch = new RowBatch();
  assert.equal(batch.isEmpty, true);
  const kyc = targetOf('agent_kyc', 'upsert');
  const customers = targetOf('agent_customers', 'upsert');
  batch.add(kyc, ['u1', 'a1', 'pass', 1]);
  batch.add(customers, ['u1', 'a1', 2]);
  batch.add(kyc, ['u1', 'a1', 'fail', 3]);
  assert.equal(batch.isEmpty, false);
  assert.deepEqual(batch.targets, [kyc, customers]);
  assert.deepEqual(batch.rowsOf(kyc), [
    ['u1', 'a1', 'pass', 1],
    ['u1', 'a1', 'fail', 3],
  ]);
  assert.equal(targetOf('agent_kyc', 'upsert'), kyc, 'one target per table and mode');
  assert.notEqual(targetOf('agent_kyc', 'insert'), kyc);
});

test('projectEvent when an order is opened and updated in one batch writes one insert row holding its last state', () => {
  const view = (orderId: string, status: string) =>
    ({
      orderId,
      uid: 'u1',
      clientOid: orderId,
      category: 'SPOT',
      symbol: 'BTCUSDT',
      status,
      createdTimeMs: 1,
      updatedTimeMs: 2,
    }) as unknown;
  const updated = (orderId: string, status: string, created: boolean) =>
    ({ type: 'OrderUpdated', order: view(orderId, status), created }) as EngineEvent;
  const batch = new RowBatch();
  for (const event of [
    updated('a', 'live', true),
    updated('old', 'cancelled', false),
    updated('b', 'live', true),
    updated('a', 'filled', false),
  ])
    projectEvent(batch, event);
  const rows = byTarget(batch);
  const statusOf = (row: Value[] | undefined) => [row?.[0], row?.[5]];
  assert.deepEqual((rows['insert orders'] ?? []).map(statusOf), [
    ['a', 'filled'],
    ['b', 'live'],
  ]);
  assert.deepEqual((rows['upsert orders'] ?? []).map(statusOf), [['old', 'cancelled']]);
  const next = new RowBatch();
  projectEvent(next, updated('b', 'cancelled', false));
  assert.deepEqual(Object.keys(byTarget(next)), ['upsert orders']);
});

test('projectEvent when many trades share candle keys in one batch gives the folded rows of rowsOf, row for row', () => {
  const trade = (at: number, symbol: string, price: string, quantity: string, side: string, timeMs: number) =>
    ({
      type: 'TradeRecorded',
      tradeId: `t${at}`,
      category: 'SPOT',
      symbol,
      price,
      quantity,
      side,
      timeMs,
    }) as EngineEvent;
  const events: EngineEvent[] = [];
  const prices = ['60000', '60000.5', '59999.99999999', '61000', '58000.1'];
  const quantities = ['0.0001', '1.5', '0.00000001', '12', '0.123456789'];
  for (let at = 0; at < 60; at += 1) {
    // Minutes and an hour boundary, two symbols, both sides, repeated and changing prices.
    const timeMs = 3_540_000 + at * 7_000;
    const symbol = at % 3 === 0 ? 'ETHUSDT' : 'BTCUSDT';
    const side = at % 4 < 2 ? 'buy' : 'sell';
    events.push(
      trade(at, symbol, prices[at % 5] as string, quantities[(at >> 1) % 5] as string, side, timeMs),
    );
    if (at % 10 === 5)
      events.push({
        type: 'IndexPriceSet',
        category: 'SPOT',
        symbol,
        indexPrice: '60001',
        timeMs,
      } as EngineEvent);
  }
  events.push(trade(99, 'BTCUSDT', 'not a price', '1', 'buy', 3_600_000));
  const fast = new RowBatch();
  for (const event of events) projectEvent(fast, event);
  const named = new RowBatch();
  for (const event of events) for (const write of rowsOf(event)) named.addWrite(write);
  assert.deepEqual(
    fast.targets.map((target) => `${target.mode} ${target.table.name}`),
    named.targets.map((target) => `${target.mode} ${target.table.name}`),
  );
  for (const target of named.targets)
    assert.deepEqual(
      folded(target, fast.rowsOf(target)),
      folded(target, named.rowsOf(target)),
      target.table.name,
    );
  const candles = targetOf('candles', 'upsert');
  assert.ok(
    named.rowsOf(candles).length > 3 * fast.rowsOf(candles).length,
    'trades merged as they are added',
  );
  // A batch read and then given more trades settles the later merges too.
  const before = fast.rowsOf(candles).map((row) => row.slice());
  projectEvent(fast, trade(100, 'BTCUSDT', '70000', '2', 'buy', 3_600_000 + 59 * 7_000));
  projectEvent(named, trade(100, 'BTCUSDT', '70000', '2', 'buy', 3_600_000 + 59 * 7_000));
  assert.notDeepEqual(fast.rowsOf(candles), before);
  assert.deepEqual(folded(candles, fast.rowsOf(candles)), folded(candles, named.rowsOf(candles)));
});
