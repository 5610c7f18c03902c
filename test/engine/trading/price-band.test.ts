/**
 * The price band of limit orders (trading/validate.ts): a buy above the reference price plus
 * the buy ratio, or a sell below it less the sell ratio, is refused; a price on the edge is
 * not. The band is compared in ticks (floor of the highest price, ceiling of the lowest), so
 * a band edge between two ticks is the test here.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngineHarness } from '../../support/engine-builders.ts';

function harnessAt(indexPrice: string): EngineHarness {
  const engine = new EngineHarness();
  engine.ok({ type: 'SetIndexPrice', timeMs: engine.nowMs, category: 'SPOT', symbol: 'BTCUSDT', indexPrice });
  return engine;
}

function codeOf(engine: EngineHarness, uid: string, side: 'buy' | 'sell', price: string): string {
  const [result] = engine.place(uid, 'SPOT', { side, price, quantity: '0.001' });
  return result?.code ?? 'ok';
}

test('limit buy when priced on the band edge between two ticks takes the tick below it', () => {
  // 60000.33 × 1.02 = 61200.3366: 61200.33 is in the band, 61200.34 above it.
  const engine = harnessAt('60000.33');
  const buyer = engine.account({ USDT: '1000' });
  assert.equal(codeOf(engine, buyer, 'buy', '61200.34'), 'PRICE_ABOVE_LIMIT');
  assert.equal(codeOf(engine, buyer, 'buy', '61200.33'), 'ok');
});

test('limit sell when priced on the band edge between two ticks takes the tick above it', () => {
  // 60000.33 × 0.98 = 58800.3234: 58800.33 is in the band, 58800.32 below it.
  const engine = harnessAt('60000.33');
  const seller = engine.account({ BTC: '1' });
  assert.equal(codeOf(engine, seller, 'sell', '58800.32'), 'PRICE_BELOW_LIMIT');
  assert.equal(codeOf(engine, seller, 'sell', '58800.33'), 'ok');
});

test('limit orders when priced exactly on a band edge that is a whole tick are accepted', () => {
  // 60000 × 1.02 = 61200 and 60000 × 0.98 = 58800, both whole ticks.
  const engine = harnessAt('60000');
  const trader = engine.account({ USDT: '1000', BTC: '1' });
  assert.equal(codeOf(engine, trader, 'buy', '61200.00'), 'ok');
  assert.equal(codeOf(engine, trader, 'buy', '61200.01'), 'PRICE_ABOVE_LIMIT');
  assert.equal(codeOf(engine, trader, 'sell', '61200.00'), 'ok');
  assert.equal(codeOf(engine, trader, 'sell', '58799.99'), 'PRICE_BELOW_LIMIT');
});
