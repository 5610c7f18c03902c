import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INSURANCE_FUND_UID } from '../../../src/domain/account.ts';
import { EngineHarness, money } from '../../support/engine-builders.ts';

const WALLET = 'usdt_futures';

function futures(engine: EngineHarness) {
  return {
    account: (usdt: string) => engine.account({ USDT: usdt }, WALLET),
    setIndex: (indexPrice: string) =>
      engine.ok({
        type: 'SetIndexPrice',
        timeMs: engine.nowMs,
        category: 'USDT-FUTURES',
        symbol: 'BTCUSDT',
        indexPrice,
      }),
    available: (uid: string) => engine.balance(uid, 'USDT', WALLET).available,
    position: (uid: string, side: 'long' | 'short') =>
      engine.state.positions.get(`${uid}|USDT-FUTURES|BTCUSDT|${side}`),
  };
}

test('one-way crossed round trip when price rises pays the long and charges fees, by hand', () => {
  const engine = new EngineHarness();
  const f = futures(engine);
  const shortSeller = f.account('10000');
  const longBuyer = f.account('10000');
  engine.place(shortSeller, 'USDT-FUTURES', { side: 'sell', price: '60000', quantity: '0.1' });
  // The resting short reserves 6000 × (1.01 / 20 + 0.0006 × 1.005) = 306.618 USDT.
  assert.equal(engine.balance(shortSeller, 'USDT', WALLET).frozen, money('306.618'));
  engine.place(longBuyer, 'USDT-FUTURES', { side: 'buy', price: '60000', quantity: '0.1' });
  assert.equal(f.available(longBuyer), money('9996.4'), 'taker fee 6000 × 0.0006');
  assert.equal(f.available(shortSeller), money('9998.8'), 'maker fee 6000 × 0.0002');
  assert.equal(f.position(longBuyer, 'long')?.entryValue, money('6000'));
  assert.equal(f.position(shortSeller, 'short')?.sizeLots, 1000);

  f.setIndex('61000');
  engine.place(longBuyer, 'USDT-FUTURES', {
    side: 'sell',
    price: '61000',
    quantity: '0.1',
    reduceOnly: true,
  });
  engine.place(shortSeller, 'USDT-FUTURES', {
    side: 'buy',
    price: '61000',
    quantity: '0.1',
    reduceOnly: true,
  });
  // Long closes as maker: +100 PnL − 6100 × 0.0002; short as taker: −100 − 6100 × 0.0006.
  assert.equal(f.available(longBuyer), money('10095.18'));
  assert.equal(f.available(shortSeller), money('9895.14'));
  assert.equal(f.position(longBuyer, 'long'), undefined);
  assert.equal(f.position(shortSeller, 'short'), undefined);
  engine.assertConserved();
});

test('hedge mode when both sides are held closes each side separately', () => {
  const engine = new EngineHarness();
  const f = futures(engine);
  const trader = f.account('10000');
  const other = f.account('10000');
  engine.ok({
    type: 'SetPositionMode',
    timeMs: engine.nowMs,
    uid: trader,
    category: 'USDT-FUTURES',
    posMode: 'hedge_mode',
  });
  engine.place(other, 'USDT-FUTURES', { side: 'sell', price: '60000', quantity: '0.1' });
  engine.place(trader, 'USDT-FUTURES', { side: 'buy', posSide: 'long', price: '60000', quantity: '0.1' });
  engine.place(trader, 'USDT-FUTURES', { side: 'sell', posSide: 'short', price: '60100', quantity: '0.05' });
  engine.place(other, 'USDT-FUTURES', { side: 'buy', price: '60100', quantity: '0.05' });
  assert.equal(f.position(trader, 'long')?.sizeLots, 1000);
  assert.equal(f.position(trader, 'short')?.sizeLots, 500);
  engine.place(other, 'USDT-FUTURES', { side: 'sell', price: '59900', quantity: '0.05' });
  const [refused] = engine.place(trader, 'USDT-FUTURES', {
    side: 'buy',
    posSide: 'short',
    price: '59900',
    quantity: '0.06',
  });
  assert.equal(refused?.code, 'POSITION_INSUFFICIENT');
  engine.place(trader, 'USDT-FUTURES', { side: 'buy', posSide: 'short', price: '59900', quantity: '0.05' });
  assert.equal(f.position(trader, 'short'), undefined);
  assert.equal(f.position(trader, 'long')?.sizeLots, 1000);
  engine.assertConserved();
});

test('isolated long when the mark falls to maintenance and the book is empty is taken by the insurance fund at bankruptcy', () => {
  const engine = new EngineHarness();
  const f = futures(engine);
  const trader = f.account('10000');
  const other = f.account('100000');
  engine.ok({
    type: 'SetMarginMode',
    timeMs: engine.nowMs,
    uid: trader,
    category: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    marginMode: 'isolated',
  });
  engine.ok({
    type: 'SetLeverage',
    timeMs: engine.nowMs,
    uid: trader,
    category: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    leverage: 10,
  });
  engine.place(other, 'USDT-FUTURES', { side: 'sell', price: '60000', quantity: '0.1' });
  engine.place(trader, 'USDT-FUTURES', { side: 'buy', price: '60000', quantity: '0.1' });
  // Isolated margin 6000 / 10 = 600; fee 3.6.
  assert.equal(f.position(trader, 'long')?.isolatedMargin, money('600'));
  assert.equal(f.available(trader), money('9396.4'));
  // At 54400: equity 600 − 560 = 40 > MM* 5440 × (0.004 + 0.0006) = 25.024: still open.
  f.setIndex('54400');
  assert.ok(f.position(trader, 'long'));
  // At 54200: equity 20 ≤ 24.932: liquidated. Bankruptcy 60000 − 600 ÷ 0.1 = 54000; the book
  // is empty, so the fund buys the 0.1 there (5400, no fee). The trader's close: PnL
  // 5400 − 6000 = −600 against the 600 margin, taker fee 5400 × 0.0006 = 3.24 beyond it, which
  // the fund makes good: the trader keeps 9396.4, the fund has −3.24 and a long worth +20.
  f.setIndex('54200');
  assert.equal(f.position(trader, 'long'), undefined);
  assert.equal(f.available(trader), money('9396.4'));
  assert.equal(engine.balance(trader, 'USDT', WALLET).margin, 0n);
  assert.equal(engine.balance(INSURANCE_FUND_UID, 'USDT', WALLET).available, money('-3.24'));
  assert.equal(f.position(INSURANCE_FUND_UID, 'long')?.entryValue, money('5400'));
  engine.assertConserved();
});

test('funding when the clock passes a settlement charges longs and pays shorts at 0.01 %', () => {
  const engine = new EngineHarness();
  const f = futures(engine);
  const longer = f.account('10000');
  const shorter = f.account('10000');
  engine.place(shorter, 'USDT-FUTURES', { side: 'sell', price: '60000', quantity: '0.1' });
  engine.place(longer, 'USDT-FUTURES', { side: 'buy', price: '60000', quantity: '0.1' });
  const before = [f.available(longer), f.available(shorter)];
  // T0 is 00:00 UTC; the first settlement is at 08:00, the second at 16:00: 6000 × 0.0001 each.
  engine.nowMs += 16 * 60 * 60 * 1000;
  engine.ok({ type: 'AdvanceClock', timeMs: engine.nowMs, ms: 0 });
  assert.equal(f.available(longer), (before[0] ?? 0n) - money('1.2'));
  assert.equal(f.available(shorter), (before[1] ?? 0n) + money('1.2'));
  engine.assertConserved();
});

test('coin-margined round trip when the price rises pays the long in BTC, by hand', () => {
  const engine = new EngineHarness();
  const shortSeller = engine.account({ BTC: '1' }, 'coin_futures');
  const longBuyer = engine.account({ BTC: '1' }, 'coin_futures');
  const btc = (uid: string) => engine.balance(uid, 'BTC', 'coin_futures').available;
  // Quantities are USD contracts: 60000 USD at 60000 is 1 BTC of value.
  engine.place(shortSeller, 'COIN-FUTURES', {
    symbol: 'BTCUSD',
    side: 'sell',
    price: '60000',
    quantity: '60000',
  });
  engine.place(longBuyer, 'COIN-FUTURES', {
    symbol: 'BTCUSD',
    side: 'buy',
    price: '60000',
    quantity: '60000',
  });
  assert.equal(btc(longBuyer), money('0.9994'), 'taker fee 1 BTC × 0.0006');
  assert.equal(engine.state.positions.get(`${longBuyer}|COIN-FUTURES|BTCUSD|long`)?.entryValue, money('1'));
  engine.ok({
    type: 'SetIndexPrice',
    timeMs: engine.nowMs,
    category: 'COIN-FUTURES',
    symbol: 'BTCUSD',
    indexPrice: '61000',
  });
  engine.place(longBuyer, 'COIN-FUTURES', {
    symbol: 'BTCUSD',
    side: 'sell',
    price: '61000',
    quantity: '60000',
    reduceOnly: true,
  });
  engine.place(shortSeller, 'COIN-FUTURES', {
    symbol: 'BTCUSD',
    side: 'buy',
    price: '61000',
    quantity: '60000',
    reduceOnly: true,
  });
  // Closing value 60000 / 61000 = 0.98360655 BTC: the long gains 1 − 0.98360655 = 0.01639345
  // and pays 0.00019673 maker fee; the short loses as much and pays 0.00059017 taker fee.
  assert.equal(btc(longBuyer), money('1.01559672'));
  assert.equal(btc(shortSeller), money('0.98281638'));
  engine.assertConserved();
});

test('a coin-margined order shows its average price in USD per coin, by hand', () => {
  const engine = new EngineHarness();
  const seller = engine.account({ BTC: '1' }, 'coin_futures');
  const buyer = engine.account({ BTC: '1' }, 'coin_futures');
  engine.place(seller, 'COIN-FUTURES', { symbol: 'BTCUSD', side: 'sell', price: '61000', quantity: '60000' });
  const { events } = engine.run({
    type: 'PlaceOrders',
    timeMs: engine.nowMs,
    uid: buyer,
    category: 'COIN-FUTURES',
    items: [
      {
        symbol: 'BTCUSD',
        side: 'buy',
        orderType: 'limit',
        timeInForce: 'gtc',
        stpMode: 'none',
        price: '61000',
        quantity: '60000',
      },
    ],
  });
  // 60000 USD at 61000 is 0.98360655 BTC (rounded down); the average is USD ÷ coin =
  // 60000 ÷ 0.98360655 = 61000.000457500003…, shown to 10^-8 rounded down (trailing zeros
  // dropped): not the coin per USD.
  const views = events.flatMap((event) =>
    event.type === 'OrderUpdated' && event.order.uid === buyer ? [event.order] : [],
  );
  assert.deepEqual(
    views.map((view) => [view.cumExecValue, view.avgPrice]),
    [['0.98360655', '61000.0004575']],
  );
});

test('a cross account far from maintenance when the index moves keeps its open orders', () => {
  const engine = new EngineHarness();
  const f = futures(engine);
  const trader = f.account('10000');
  const other = f.account('100000');
  engine.place(other, 'USDT-FUTURES', { side: 'sell', price: '60000', quantity: '0.1' });
  engine.place(trader, 'USDT-FUTURES', { side: 'buy', price: '60000', quantity: '0.1' });
  const [resting] = engine.place(trader, 'USDT-FUTURES', { side: 'buy', price: '50000', quantity: '0.01' });
  // Equity 9996.4 − 100 against MM* 5900 × 0.0046 = 27.14: nowhere near; the order stays.
  f.setIndex('59000');
  assert.equal(engine.state.orders.get(resting?.orderId ?? '')?.status, 'live');
  engine.assertConserved();
});
