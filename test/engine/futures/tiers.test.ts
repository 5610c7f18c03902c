/**
 * Position tiers in margin and in the open and leverage checks: the same table the tier
 * endpoints serve (engine/futures/tiers.ts, BTCUSDT: tier 1 up to 200,000 USDT at 150x and
 * MMR 0.4 %, tier 2 up to 1,000,000 at 100x and 0.5 %).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { positionRisk } from '../../../src/engine/futures/risk.ts';
import { EngineHarness, money } from '../../support/engine-builders.ts';

const WALLET = 'usdt_futures';

function setLeverage(engine: EngineHarness, uid: string, leverage: number) {
  return engine.run({
    type: 'SetLeverage',
    timeMs: engine.nowMs,
    uid,
    category: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    leverage,
  }).outcome;
}

test('an open that carries the position into tier 2 above its leverage is refused, at tier leverage it passes', () => {
  const engine = new EngineHarness();
  const maker = engine.account({ USDT: '100000' }, WALLET);
  const trader = engine.account({ USDT: '100000' }, WALLET);
  assert.ok(setLeverage(engine, trader, 125).ok, 'no position: the contract maximum applies');
  engine.place(maker, 'USDT-FUTURES', { side: 'sell', price: '60000', quantity: '4' });
  // 4 × 60000 = 240,000 USDT: tier 2, at most 100x; at 125x the open is over the max open size.
  const [refused] = engine.place(trader, 'USDT-FUTURES', { side: 'buy', price: '60000', quantity: '4' });
  assert.equal(refused?.code, 'OPEN_SIZE_EXCEEDED');
  // 3 × 60000 = 180,000: still tier 1, 125x allowed.
  const [opened] = engine.place(trader, 'USDT-FUTURES', { side: 'buy', price: '60000', quantity: '3' });
  assert.equal(opened?.code, undefined);
  assert.ok(setLeverage(engine, trader, 100).ok);
  engine.place(trader, 'USDT-FUTURES', { side: 'buy', price: '60000', quantity: '1' });
  const position = engine.state.positions.get(`${trader}|USDT-FUTURES|BTCUSDT|long`);
  assert.equal(position?.sizeLots, 40000);
  // 240,000 of cost basis is tier 2: 101x is above its 100x.
  const raised = setLeverage(engine, trader, 101);
  assert.equal(raised.ok ? '' : raised.code, 'LEVERAGE_INVALID');
  engine.assertConserved();
});

test('cross hedge positions look their tier up by long and short together', () => {
  const engine = new EngineHarness();
  const maker = engine.account({ USDT: '100000' }, WALLET);
  const trader = engine.account({ USDT: '100000' }, WALLET);
  engine.ok({
    type: 'SetPositionMode',
    timeMs: engine.nowMs,
    uid: trader,
    category: 'USDT-FUTURES',
    posMode: 'hedge_mode',
  });
  engine.place(maker, 'USDT-FUTURES', { side: 'sell', price: '60000', quantity: '2' });
  engine.place(trader, 'USDT-FUTURES', { side: 'buy', posSide: 'long', price: '60000', quantity: '2' });
  const long = engine.state.positions.get(`${trader}|USDT-FUTURES|BTCUSDT|long`);
  assert.ok(long);
  const books = engine.exchange.books;
  // Alone: 120,000 at mark 60000 is tier 1, MMR 0.004.
  assert.equal(positionRisk(engine.state, books, long)?.mmr, money('0.004'));
  engine.place(maker, 'USDT-FUTURES', { side: 'buy', price: '60000', quantity: '2' });
  engine.place(trader, 'USDT-FUTURES', { side: 'sell', posSide: 'short', price: '60000', quantity: '2' });
  // With the 120,000 short: 240,000 together is tier 2, MMR 0.005 for each side.
  assert.equal(positionRisk(engine.state, books, long)?.mmr, money('0.005'));
  engine.assertConserved();
});
