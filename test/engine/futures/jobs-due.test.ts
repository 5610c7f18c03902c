/**
 * The funding and delivery jobs before a command are skipped until one falls due
 * (src/engine/futures/jobs-due.ts): orders alone between settlements must still see funding
 * settle on its grid and a delivery settle at its time, and an instrument listed or changed
 * between orders must be seen by the next order's jobs. Every case replays exactly.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../../src/domain/events.ts';
import { defaultCatalogue } from '../../../src/engine/instruments/catalogue.ts';
import { tradingJobsDueMs } from '../../../src/engine/futures/jobs-due.ts';
import { T0, assertReplaysExactly } from '../../support/engine-builders.ts';
import { CATEGORY, TriggerHarness } from '../triggers/support.ts';

const HOUR_MS = 3_600_000;

function settled(events: EngineEvent[], symbol: string): number[] {
  return events.flatMap((event) =>
    event.type === 'FundingRateSettled' && event.symbol === symbol ? [event.timeMs] : [],
  );
}

/** One resting buy far from the market, at `timeMs`: an order command and nothing else. */
function orderAt(harness: TriggerHarness, uid: string, timeMs: number): EngineEvent[] {
  harness.nowMs = timeMs;
  const { outcome, events } = harness.run({
    type: 'PlaceOrders',
    timeMs,
    uid,
    category: CATEGORY,
    items: [
      {
        symbol: 'BTCUSDT',
        side: 'buy',
        orderType: 'limit',
        timeInForce: 'gtc',
        stpMode: 'none',
        price: '59000',
        quantity: '0.001',
      },
    ],
  });
  assert.ok(outcome.ok);
  return events;
}

test('next due time: the earliest funding time of the listed perpetuals and delivery time', () => {
  const harness = new TriggerHarness();
  const uid = harness.trader();
  orderAt(harness, uid, T0 + 1);
  // Every perpetual of the default catalogue funds every 8 hours from 00:00 UTC; the delivery
  // contract delivers on 2026-12-25, later.
  assert.equal(tradingJobsDueMs(harness.state), T0 + 8 * HOUR_MS);
});

test('funding settles on its grid when only orders come between settlements', () => {
  const harness = new TriggerHarness();
  const uid = harness.trader();
  harness.open(uid, 'long', '0.1', '60000');
  assert.deepEqual(settled(orderAt(harness, uid, T0 + 8 * HOUR_MS - 1), 'BTCUSDT'), []);
  assert.deepEqual(settled(orderAt(harness, uid, T0 + 8 * HOUR_MS), 'BTCUSDT'), [T0 + 8 * HOUR_MS]);
  assert.deepEqual(settled(orderAt(harness, uid, T0 + 16 * HOUR_MS - 1), 'BTCUSDT'), []);
  // Two grid times passed at once settle both, in order.
  assert.deepEqual(settled(orderAt(harness, uid, T0 + 24 * HOUR_MS + 5), 'BTCUSDT'), [
    T0 + 16 * HOUR_MS,
    T0 + 24 * HOUR_MS,
  ]);
  harness.assertConserved();
  assertReplaysExactly(harness);
});

test('a perpetual listed between orders gets its funding entry at the next order and settles', () => {
  const harness = new TriggerHarness();
  const uid = harness.trader();
  orderAt(harness, uid, T0 + 1);
  const btc = defaultCatalogue().find((item) => item.category === CATEGORY && item.symbol === 'BTCUSDT')!;
  harness.ok({ type: 'AddInstrument', timeMs: T0 + 2, instrument: { ...btc, symbol: 'XBTUSDT' } });
  assert.equal(harness.state.funding.has(`${CATEGORY}:XBTUSDT`), false);
  orderAt(harness, uid, T0 + 3);
  assert.equal(harness.state.funding.get(`${CATEGORY}:XBTUSDT`)?.nextFundingTimeMs, T0 + 8 * HOUR_MS);
  assert.deepEqual(settled(orderAt(harness, uid, T0 + 8 * HOUR_MS), 'XBTUSDT'), [T0 + 8 * HOUR_MS]);
  assertReplaysExactly(harness);
});

test('a funding interval changed between orders moves the next settlement only after the next one', () => {
  const harness = new TriggerHarness();
  const uid = harness.trader();
  orderAt(harness, uid, T0 + 1);
  harness.ok({
    type: 'PatchInstrument',
    timeMs: T0 + 2,
    category: CATEGORY,
    symbol: 'BTCUSDT',
    changes: { fundInterval: '4' },
  });
  // The entry keeps the time it had (08:00); from there the grid steps by 4 hours.
  assert.deepEqual(settled(orderAt(harness, uid, T0 + 8 * HOUR_MS), 'BTCUSDT'), [T0 + 8 * HOUR_MS]);
  assert.deepEqual(settled(orderAt(harness, uid, T0 + 12 * HOUR_MS), 'BTCUSDT'), [T0 + 12 * HOUR_MS]);
  assertReplaysExactly(harness);
});

test('a delivery contract delivers at its time when only orders come before it', () => {
  const harness = new TriggerHarness();
  const uid = harness.trader();
  const key = 'COIN-FUTURES:BTCUSDZ26';
  const deliveryMs = Number(harness.state.instruments.get(key)?.deliveryTime);
  orderAt(harness, uid, deliveryMs - 1);
  assert.equal(harness.state.instruments.get(key)?.status, 'online');
  orderAt(harness, uid, deliveryMs);
  assert.equal(harness.state.instruments.get(key)?.status, 'offline');
  assertReplaysExactly(harness);
});
