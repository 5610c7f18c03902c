/**
 * Bills in pairs (persistence/bill-pairs.ts): which two bills share a row, the row they make,
 * and its bills read back. test/contracts/bill-pairs.contract.ts reads them through the stores.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BillPosted, EngineEvent, FillRecorded, FillView } from '../../src/domain/events.ts';
import { billsOfPair, isNextId, pairsWith } from '../../src/persistence/bill-pairs.ts';
import { projectEvents, RowBatch, targetOf } from '../../src/persistence/projection.ts';
import { tableOf } from '../../src/persistence/schema.ts';
import { fillOfRow } from '../../src/persistence/view-bodies.ts';

const bill = (billId: string, fields: Partial<BillPosted> = {}): BillPosted => ({
  type: 'BillPosted',
  billId,
  uid: '1000000001',
  wallet: 'spot',
  coin: 'USDT',
  symbol: 'BTCUSDT',
  amount: -5_900_000_000n,
  fee: 0n,
  balanceAfter: 94_100_000_000n,
  businessType: 'buy',
  category: 'SPOT',
  timeMs: 1_700_000_000_000,
  ...fields,
});

test('isNextId when ids differ by one across carries says so, and not for anything else', () => {
  assert.equal(isNextId('100000000000000041', '100000000000000042'), true);
  assert.equal(isNextId('100000000000000099', '100000000000000100'), true);
  assert.equal(isNextId('109999999999999999', '110000000000000000'), true);
  assert.equal(isNextId('100000000000000041', '100000000000000043'), false);
  assert.equal(isNextId('100000000000000042', '100000000000000041'), false);
  assert.equal(isNextId('100000000000000099', '100000000000000000'), false);
  assert.equal(isNextId('100000000000000099', '100000000000000110'), false);
  assert.equal(isNextId('200000000000000041', '100000000000000042'), false);
  assert.equal(isNextId('999', '1000'), false, 'a longer id');
  assert.equal(isNextId('9', '0'), false);
  assert.equal(isNextId('', ''), false);
  assert.equal(isNextId('10a', '10b'), false, 'not a digit');
});

test('billsOfPair when the first id ends in 9s gives the second id in as many digits', () => {
  const first = bill('100000000000000099');
  const second = bill('100000000000000100', { coin: 'BTC' });
  assert.equal(pairsWith(first, second), true);
  const batch = new RowBatch();
  projectEvents(batch, [first, second]);
  const [values] = batch.rowsOf(targetOf('bill_pairs', 'insert'));
  const columns = tableOf('bill_pairs').columns.map(([name]) => name);
  const row = Object.fromEntries(columns.map((name, at) => [name, values?.[at]]));
  assert.deepEqual(
    billsOfPair(row).map((read) => read.billId),
    ['100000000000000099', '100000000000000100'],
  );
  assert.deepEqual(
    billsOfPair({ ...row, bill_id: '0099' }).map((read) => read.billId),
    ['0099', '0100'],
  );
});

test('pairsWith when the second bill shares everything but coin and amounts pairs them, and not otherwise', () => {
  const first = bill('100000000000000041');
  const second = bill('100000000000000042', { coin: 'BTC', amount: 10_000_000n, fee: 10_000n });
  assert.equal(pairsWith(first, second), true);
  const differing: Partial<BillPosted>[] = [
    { uid: '1000000002' },
    { wallet: 'crossed_margin' },
    { businessType: 'sell' },
    { symbol: 'ETHUSDT' },
    { category: 'MARGIN' },
    { timeMs: 1_700_000_000_001 },
    { billId: '100000000000000043' },
  ];
  for (const fields of differing)
    assert.equal(pairsWith(first, { ...second, ...fields }), false, JSON.stringify(fields));
});

test('projectEvents when bills come back to back writes pairs, the rest alone, and the pair reads back as the two bills', () => {
  const paid = bill('100000000000000041');
  const received = bill('100000000000000042', {
    coin: 'BTC',
    amount: 99_900n,
    fee: 100n,
    balanceAfter: 99_900n,
  });
  const alone = bill('100000000000000044', { businessType: 'deposit' });
  const other = bill('100000000000000045', { businessType: 'withdraw' });
  const events: EngineEvent[] = [paid, received, alone, other];
  const batch = new RowBatch();
  projectEvents(batch, events);
  const pairs = batch.rowsOf(targetOf('bill_pairs', 'insert'));
  const singles = batch.rowsOf(targetOf('bills', 'insert'));
  assert.equal(pairs.length, 1);
  assert.deepEqual(
    singles.map((row) => row[0]),
    ['100000000000000044', '100000000000000045'],
    'a deposit and a withdrawal differ in business type: two rows',
  );
  const columns = tableOf('bill_pairs').columns.map(([name]) => name);
  const row = Object.fromEntries(columns.map((name, at) => [name, (pairs[0] as unknown[])[at]]));
  const { type: _paid, ...paidRow } = paid;
  const { type: _received, ...receivedRow } = received;
  assert.deepEqual(billsOfPair(row), [paidRow, receivedRow]);
});

function fillOf(fields: Partial<FillView> = {}): FillRecorded {
  const fill: FillView = {
    execId: '100000000000000043',
    tradeId: '100000000000000040',
    orderId: '100000000000000030',
    clientOid: 'b1',
    uid: '1000000001',
    category: 'SPOT',
    symbol: 'BTCUSDT',
    orderType: 'limit',
    side: 'buy',
    execPrice: '59000',
    execQty: '0.001',
    execValue: '59',
    tradeScope: 'taker',
    tradeSide: 'open',
    feeCoin: 'BTC',
    fee: '0.000001',
    execPnl: '0',
    timeMs: 1_700_000_000_000,
    ...fields,
  };
  return { type: 'FillRecorded', fill };
}

test('projectEvents when a pair of bills comes right before the fill it settles writes one row of both, read back as the fill and the two bills', () => {
  const paid = bill('100000000000000041');
  const received = bill('100000000000000042', { coin: 'BTC', amount: 999n, fee: 1n, balanceAfter: 999n });
  const recorded = fillOf();
  const batch = new RowBatch();
  projectEvents(batch, [paid, received, recorded]);
  assert.deepEqual(batch.rowsOf(targetOf('bill_pairs', 'insert')), []);
  assert.deepEqual(batch.rowsOf(targetOf('fills', 'insert')), []);
  const [values, more] = batch.rowsOf(targetOf('fills_with_bills', 'insert'));
  assert.equal(more, undefined);
  const columns = tableOf('fills_with_bills').columns.map(([name]) => name);
  assert.equal(values?.length, columns.length);
  const row = Object.fromEntries(columns.map((name, at) => [name, values?.[at]]));
  const { type: _paid, ...paidRow } = paid;
  const { type: _received, ...receivedRow } = received;
  assert.deepEqual(billsOfPair(row), [paidRow, receivedRow]);
  assert.deepEqual(fillOfRow(row), recorded.fill);
});

test('projectEvents when the fill after a pair is of another account, market or time writes the pair and the fill apart', () => {
  const paid = bill('100000000000000041');
  const received = bill('100000000000000042', { coin: 'BTC', amount: 999n, fee: 1n, balanceAfter: 999n });
  const differing: Partial<FillView>[] = [
    { uid: '1000000002' },
    { category: 'MARGIN' },
    { symbol: 'ETHUSDT' },
    { timeMs: 1_700_000_000_001 },
  ];
  for (const fields of differing) {
    const batch = new RowBatch();
    projectEvents(batch, [paid, received, fillOf(fields)]);
    assert.equal(batch.rowsOf(targetOf('bill_pairs', 'insert')).length, 1, JSON.stringify(fields));
    assert.equal(batch.rowsOf(targetOf('fills', 'insert')).length, 1, JSON.stringify(fields));
    assert.deepEqual(batch.rowsOf(targetOf('fills_with_bills', 'insert')), [], JSON.stringify(fields));
  }
  // A fill after a lone bill, or before its bills, is a fill row of its own.
  const batch = new RowBatch();
  projectEvents(batch, [
    fillOf(),
    paid,
    received,
    bill('100000000000000050', { businessType: 'deposit' }),
    fillOf({ execId: '100000000000000051' }),
  ]);
  assert.equal(batch.rowsOf(targetOf('fills', 'insert')).length, 2);
  assert.equal(batch.rowsOf(targetOf('bill_pairs', 'insert')).length, 1);
  assert.equal(batch.rowsOf(targetOf('bills', 'insert')).length, 1);
});
