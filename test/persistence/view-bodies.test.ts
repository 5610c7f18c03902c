/**
 * Order and fill bodies (persistence/view-bodies.ts): a view written as its row's columns and
 * array body reads back as the same view, spot and futures alike, and bodies written in the
 * earlier form (the whole view as a JSON object) still read as they were.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent, FillView } from '../../src/domain/events.ts';
import type { OrderView } from '../../src/domain/order-view.ts';
import { rowsOf } from '../../src/persistence/projection.ts';
import { fillBody, fillOfRow, orderBody, orderOfRow } from '../../src/persistence/view-bodies.ts';

const spotOrder: OrderView = {
  orderId: '1300000000000000001',
  clientOid: 'my "oid" \\ 1',
  uid: '1000000001',
  category: 'SPOT',
  symbol: 'BTCUSDT',
  wallet: 'spot',
  side: 'buy',
  orderType: 'limit',
  timeInForce: 'ioc',
  stpMode: 'none',
  price: '59000.00',
  qty: '0.0001',
  amount: '0',
  cumExecQty: '0',
  cumExecValue: '0',
  avgPrice: '0',
  feeCoin: 'BTC',
  fee: '0',
  status: 'cancelled',
  cancelReason: 'ioc_remainder',
  source: 'api',
  createdTimeMs: 1_790_000_000_000,
  updatedTimeMs: 1_790_000_000_007,
};

const futuresOrder: OrderView = {
  ...spotOrder,
  orderId: '1300000000000000002',
  category: 'USDT-FUTURES',
  wallet: 'usdt_futures',
  status: 'partially_filled',
  cumExecQty: '0.00005',
  futures: {
    holdSide: 'long',
    tradeSide: 'open',
    reduceOnly: true,
    posMode: 'hedge_mode',
    marginMode: 'crossed',
    leverage: '20',
    marginCoin: 'USDT',
    realisedPnl: '-1.25',
  },
};

/** The row a store holds for a view: its projection's columns, with the body given. */
function rowOf(event: EngineEvent, body: string): Record<string, unknown> {
  const [write] = rowsOf(event);
  assert.ok(write);
  // PostgreSQL returns BIGINT columns as text.
  const row: Record<string, unknown> = { ...write.row, body };
  for (const column of ['updated_ms', 'time_ms']) if (column in row) row[column] = String(row[column]);
  return row;
}

const orderRow = (order: OrderView, body: string) =>
  rowOf({ type: 'OrderUpdated', order, created: true }, body);
const fillRow = (fill: FillView, body: string) => rowOf({ type: 'FillRecorded', fill }, body);

const spotFill: FillView = {
  execId: '1400000000000000001',
  tradeId: '1500000000000000001',
  orderId: '1300000000000000001',
  clientOid: 'c-1',
  uid: '1000000001',
  category: 'SPOT',
  symbol: 'BTCUSDT',
  orderType: 'limit',
  side: 'sell',
  execPrice: '60000.00',
  execQty: '0.0001',
  execValue: '6.000000',
  tradeScope: 'maker',
  tradeSide: '',
  feeCoin: 'USDT',
  fee: '0.006',
  execPnl: '0',
  timeMs: 1_790_000_000_009,
};

const futuresFill: FillView = { ...spotFill, tradeScope: 'taker', posSide: 'long', posMode: 'one_way_mode' };

/** A futures order with TP/SL presets: a limit stop-loss on the mark, a market take-profit. */
const presetOrder: OrderView = {
  ...futuresOrder,
  futures: {
    ...(futuresOrder.futures as NonNullable<OrderView['futures']>),
    takeProfit: { triggerPrice: '62000', triggerType: 'fill_price', executePrice: '' },
    stopLoss: { triggerPrice: '58000', triggerType: 'mark_price', executePrice: '57900' },
  },
};

/** A spot order with TP/SL presets, and a margin order with a loanType: the slot after futures. */
const spotPresetOrder: OrderView = {
  ...spotOrder,
  spotPresets: { takeProfit: { triggerPrice: '62000', triggerType: 'fill_price', executePrice: '' } },
};
const marginOrder: OrderView = {
  ...spotOrder,
  category: 'MARGIN',
  wallet: 'crossed_margin',
  loanType: 'autoRepay',
};

test('orderOfRow when given an order written by orderBody gives the same order, spot and futures', () => {
  for (const order of [spotOrder, futuresOrder, presetOrder, spotPresetOrder, marginOrder]) {
    assert.deepStrictEqual(orderOfRow(orderRow(order, orderBody(order))), order);
  }
});

test('orderBody when given an order holds none of its row columns and is far smaller than the view', () => {
  const body = orderBody(spotOrder);
  assert.ok(!body.includes(spotOrder.orderId) && !body.includes('BTCUSDT'), body);
  assert.ok(body.length * 3 < JSON.stringify(spotOrder).length, `${body.length} bytes`);
});

test('orderOfRow when given a body in the earlier form (the whole view as an object) gives that view', () => {
  assert.deepStrictEqual(orderOfRow(orderRow(futuresOrder, JSON.stringify(futuresOrder))), futuresOrder);
});

test('fillOfRow when given a fill written by fillBody gives the same fill, with and without position fields', () => {
  for (const fill of [spotFill, futuresFill]) {
    assert.deepStrictEqual(fillOfRow(fillRow(fill, fillBody(fill))), fill);
  }
});

test('fillOfRow when given a body in the earlier form gives that fill', () => {
  assert.deepStrictEqual(fillOfRow(fillRow(futuresFill, JSON.stringify(futuresFill))), futuresFill);
});
