/**
 * AdvanceClock along a price path: every step is evaluated at its own time, so a trigger or a
 * liquidation price crossed on the way fires even when the path ends back where it began;
 * the walked prices come out as minute bars; a bad path changes nothing; replay agrees.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PricePathStream } from '../../../src/domain/commands.ts';
import type { EngineEvent } from '../../../src/domain/events.ts';
import { assertReplaysExactly } from '../../support/engine-builders.ts';
import { CATEGORY, TriggerHarness } from '../triggers/support.ts';

const BTC_USDT = [{ category: CATEGORY, symbol: 'BTCUSDT' }] as const;

function path(harness: TriggerHarness, prices: string[], intervalMs = 1_000): PricePathStream[] {
  return [{ instruments: [...BTC_USDT], firstMs: harness.nowMs + intervalMs, intervalMs, prices }];
}

function walk(harness: TriggerHarness, ms: number, streams?: PricePathStream[]) {
  return harness.run({
    type: 'AdvanceClock',
    timeMs: harness.nowMs,
    ms,
    ...(streams ? { path: streams } : {}),
  });
}

test('AdvanceClock when the path crosses a trigger and comes back fires the plan at that step', () => {
  const harness = new TriggerHarness();
  harness.rest('buy', '58000', '1');
  const trader = harness.trader();
  const planId = harness.plan(trader, { triggerPrice: '59000', side: 'sell', size: '0.1' });
  const startMs = harness.nowMs;
  const { outcome } = walk(harness, 10_000, path(harness, ['59500', '58900', '59800', '60100']));
  assert.ok(outcome.ok);
  const report = harness.report(planId);
  assert.equal(report?.status, 'executed');
  assert.equal(report?.updatedTimeMs, startMs + 2_000, 'fired at the second step, 58900');
  assert.equal(harness.state.indexPrices.get(`${CATEGORY}:BTCUSDT`), '60100.0');
  assert.equal(harness.state.nowMs, startMs + 10_000);
  harness.assertConserved();
  assertReplaysExactly(harness);
});

test('AdvanceClock when the same move is one jump leaves the plan waiting', () => {
  const harness = new TriggerHarness();
  harness.rest('buy', '58000', '1');
  const trader = harness.trader();
  const planId = harness.plan(trader, { triggerPrice: '59000', side: 'sell', size: '0.1' });
  assert.ok(walk(harness, 10_000, path(harness, ['60100'], 10_000)).outcome.ok);
  assert.ok(harness.live(planId), 'a path that never touched 59000 fires nothing');
});

test('AdvanceClock when the path dips through the liquidation price liquidates on the way', () => {
  const harness = new TriggerHarness();
  const trader = harness.trader('1000');
  harness.open(trader, 'long', '0.1', '60000');
  assert.ok(harness.position(trader, 'long'));
  // 1,000 USDT against 0.1 BTC: the equity is gone near 50,000; the path recovers to 59,000.
  assert.ok(walk(harness, 5_000, path(harness, ['55000', '49000', '59000'])).outcome.ok);
  assert.equal(harness.position(trader, 'long'), undefined);
  harness.assertConserved();
  assertReplaysExactly(harness);
});

test('AdvanceClock along a path reports the walked prices as minute bars', () => {
  const harness = new TriggerHarness();
  const startMs = harness.nowMs; // on a minute boundary
  // Steps at 0:30, 1:00, 1:30 and 2:00.
  const prices = ['60010', '60050', '59990', '60020'];
  const { events } = walk(harness, 120_000, path(harness, prices, 30_000));
  const bars = events.filter(
    (event): event is Extract<EngineEvent, { type: 'IndexBarsWalked' }> => event.type === 'IndexBarsWalked',
  );
  assert.equal(bars.length, 1);
  assert.deepEqual(bars[0]?.bars, [
    { startMs, open: '60010.0', high: '60010.0', low: '60010.0', close: '60010.0' },
    { startMs: startMs + 60_000, open: '60050.0', high: '60050.0', low: '59990.0', close: '59990.0' },
    { startMs: startMs + 120_000, open: '60020.0', high: '60020.0', low: '60020.0', close: '60020.0' },
  ]);
  assert.ok(!events.some((event) => event.type === 'IndexPriceSet'), 'no event per step');
});

test('AdvanceClock when the path is malformed refuses it and sets no price', () => {
  const cases: [string, (harness: TriggerHarness) => PricePathStream[]][] = [
    ['a price that is not a decimal', (harness) => path(harness, ['60000', 'x'])],
    ['a step past the end', (harness) => path(harness, ['1', '2', '3'], 4_000)],
    ['a step at the start', (harness) => [{ ...path(harness, ['1'])[0]!, firstMs: harness.nowMs }]],
    [
      'an unknown symbol',
      (harness) => [{ ...path(harness, ['1'])[0]!, instruments: [{ category: CATEGORY, symbol: 'NOPE' }] }],
    ],
  ];
  for (const [name, build] of cases) {
    const harness = new TriggerHarness();
    const { outcome } = walk(harness, 10_000, build(harness));
    assert.equal(outcome.ok, false, name);
    assert.equal(harness.state.indexPrices.get(`${CATEGORY}:BTCUSDT`), '60000', name);
  }
});
