/**
 * ClosePositions in the engine: market closes at the book, split at the symbol's maximum
 * market size, stopped when the book runs out, taken in symbol order (long before short),
 * narrowed by symbol and side, nothing to close refused whole, and replayed exactly.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CloseResult } from '../../../src/engine/futures/close-positions.ts';
import { assertReplaysExactly } from '../../support/engine-builders.ts';
import { CATEGORY, TriggerHarness } from '../triggers/support.ts';

function close(
  harness: TriggerHarness,
  uid: string,
  fields: { symbol?: string; holdSide?: 'long' | 'short' } = {},
) {
  return harness.run({ type: 'ClosePositions', timeMs: harness.nowMs, uid, category: CATEGORY, ...fields })
    .outcome;
}

function closed(
  harness: TriggerHarness,
  uid: string,
  fields: Parameters<typeof close>[2] = {},
): CloseResult[] {
  const outcome = close(harness, uid, fields);
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.code);
  return outcome.value as CloseResult[];
}

test('ClosePositions when the position exceeds the maximum market size closes it in several orders', () => {
  const harness = new TriggerHarness();
  harness.ok({
    type: 'PatchInstrument',
    timeMs: harness.nowMs,
    category: CATEGORY,
    symbol: 'BTCUSDT',
    changes: { maxMarketOrderQty: '0.1' },
  });
  const uid = harness.trader();
  harness.open(uid, 'long', '0.25', '60000');
  harness.rest('buy', '59900', '1');
  const results = closed(harness, uid);
  assert.deepEqual(
    results.map((result) => [result.symbol, result.holdSide, harness.lastOrder(result.orderId)?.qty]),
    [
      ['BTCUSDT', 'long', '0.1'],
      ['BTCUSDT', 'long', '0.1'],
      ['BTCUSDT', 'long', '0.05'],
    ],
  );
  assert.equal(harness.position(uid, 'long'), undefined);
  harness.assertConserved();
  assertReplaysExactly(harness);
});

test('ClosePositions when the book runs out stops and leaves the rest open', () => {
  const harness = new TriggerHarness();
  harness.ok({
    type: 'PatchInstrument',
    timeMs: harness.nowMs,
    category: CATEGORY,
    symbol: 'BTCUSDT',
    changes: { maxMarketOrderQty: '0.1' },
  });
  const uid = harness.trader();
  harness.open(uid, 'long', '0.25', '60000');
  harness.rest('buy', '59900', '0.15');
  const results = closed(harness, uid);
  assert.deepEqual(
    results.map((result) => [
      harness.lastOrder(result.orderId)?.cumExecQty,
      harness.lastOrder(result.orderId)?.status,
    ]),
    [
      ['0.1', 'filled'],
      ['0.05', 'cancelled'],
    ],
  );
  assert.equal(harness.position(uid, 'long')?.sizeLots, 1000, '0.1 BTC stays open');
  harness.assertConserved();
});

test('ClosePositions when hedged takes symbols in order, long before short, and narrows by side', () => {
  const harness = new TriggerHarness();
  const uid = harness.trader();
  harness.ok({
    type: 'SetPositionMode',
    timeMs: harness.nowMs,
    uid,
    category: CATEGORY,
    posMode: 'hedge_mode',
  });
  const hedged = (symbol: string, side: 'buy' | 'sell', price: string, size: string) => {
    harness.order(harness.trader('1000000'), {
      symbol,
      side: side === 'buy' ? 'sell' : 'buy',
      price,
      quantity: size,
    });
    harness.order(uid, { symbol, side, posSide: side === 'buy' ? 'long' : 'short', price, quantity: size });
  };
  hedged('ETHUSDT', 'buy', '3000', '1');
  hedged('BTCUSDT', 'sell', '60000', '0.01');
  hedged('BTCUSDT', 'buy', '60000', '0.02');
  harness.rest('buy', '59900', '1');
  harness.rest('sell', '60100', '1');
  harness.order(harness.trader('1000000'), { symbol: 'ETHUSDT', side: 'buy', price: '2990', quantity: '10' });
  assert.equal(close(harness, uid, { symbol: 'SOLUSDT' }).ok, false);
  assert.deepEqual(
    closed(harness, uid, { holdSide: 'short' }).map((result) => [result.symbol, result.holdSide]),
    [['BTCUSDT', 'short']],
  );
  assert.deepEqual(
    closed(harness, uid).map((result) => [result.symbol, result.holdSide]),
    [
      ['BTCUSDT', 'long'],
      ['ETHUSDT', 'long'],
    ],
  );
  const none = close(harness, uid);
  assert.equal(none.ok ? 'ok' : none.code, 'NO_POSITION_TO_CLOSE');
  harness.assertConserved();
  assertReplaysExactly(harness);
});
