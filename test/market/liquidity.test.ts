/**
 * The liquidity provider over real HTTP: its ladder around the index, a market order that
 * fills against it at once, a resting limit order that fills when the index comes to it, and
 * the conservation invariant with the house account in it. Figures by hand from the default
 * catalogue (BTCUSDT spot: tick 0.01, lot 0.000001, fees 0.1 % in the coin received) and the
 * default ladder (10 levels, spread 0.0005, step 0.0005, 5000 USDT a level).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { niceStep, targetLadder } from '../../src/market/ladder.ts';
import { parseLiquidityConfig } from '../../src/market/liquidity.ts';
import { defaultCatalogue } from '../../src/engine/instruments/catalogue.ts';
import { publicGet } from '../support/http.ts';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';
import { data } from '../support/scenario.ts';

const btcSpot = defaultCatalogue().find((i) => i.category === 'SPOT' && i.symbol === 'BTCUSDT');

test('targetLadder when the index is 60000 puts levels on a 20-dollar grid outside the spread', () => {
  assert.ok(btcSpot);
  // grid: 60000 × 0.0005 = 30 → 3000 ticks → nice step 2000 ticks = 20.00
  assert.equal(niceStep(3000), 2000);
  const quotes = targetLadder(btcSpot, 60000, { levels: 2, spread: 0.0005, step: 0.0005, notional: 5000 });
  // best bid ⌊59970 / 20⌋ × 20 = 59960, best ask ⌈60030 / 20⌉ × 20 = 60040;
  // lots = ⌊5000 / (price × 0.000001)⌋: 83388, 83416, 83277, 83250.
  assert.deepEqual(quotes, [
    { side: 'buy', priceTicks: 5_996_000, lots: 83_388 },
    { side: 'sell', priceTicks: 6_004_000, lots: 83_277 },
    { side: 'buy', priceTicks: 5_994_000, lots: 83_416 },
    { side: 'sell', priceTicks: 6_006_000, lots: 83_250 },
  ]);
  // A move inside one grid step leaves the ladder where it is.
  assert.deepEqual(
    targetLadder(btcSpot, 60005, { levels: 2, spread: 0.0005, step: 0.0005, notional: 5000 }),
    quotes,
  );
});

test('parseLiquidityConfig when the ladder would leave the price band refuses it', () => {
  assert.equal(parseLiquidityConfig({}).enabled, true);
  assert.equal(parseLiquidityConfig({ BOURSE_LIQUIDITY: 'off' }).enabled, false);
  assert.throws(
    () => parseLiquidityConfig({ BOURSE_LIQUIDITY_LEVELS: '50', BOURSE_LIQUIDITY_STEP: '0.001' }),
    /band/,
  );
  assert.throws(() => parseLiquidityConfig({ BOURSE_LIQUIDITY_MARKETS: 'SPOT' }), /CATEGORY/);
  assert.throws(() => parseLiquidityConfig({ BOURSE_LIQUIDITY: 'maybe' }), /on or off/);
});

type Rows = Record<string, string>[];

test('liquidity provider when a bot trades fills its market order at once and its limit order when the price comes', async (t) => {
  const server = await serverFor(t, {
    env: { BOURSE_LIQUIDITY: 'on', BOURSE_LIQUIDITY_INTERVAL: '3600000' },
  });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const bot = new SigningClient(server.url, server.credentials);
  const state = () => server.services.sequencer.exchange.state;
  await server.market.liquidity.requote();

  const book = data<{ asks: string[][]; bids: string[][] }>(
    await publicGet(server.url, '/api/v2/spot/market/orderbook', 'symbol=BTCUSDT&limit=2'),
  );
  assert.deepEqual(book.asks, [
    ['60040', '0.083277'],
    ['60060', '0.08325'],
  ]);
  assert.deepEqual(book.bids, [
    ['59960', '0.083388'],
    ['59940', '0.083416'],
  ]);
  const margin = data<{ a: string[][]; b: string[][] }>(
    await publicGet(server.url, '/api/v3/market/orderbook', 'category=MARGIN&symbol=BTCUSDT&limit=1'),
  );
  assert.deepEqual(margin.a, [['60040', '0.083277']]);

  // Market buy of 1000 USDT: ⌊1000 / 0.06004⌋ = 16655 lots = 0.016655 BTC for 999.9662 USDT;
  // fee ⌈0.016655 × 0.001⌉ = 0.00001666 BTC.
  const placed = data<{ orderId: string }>(
    await bot.post('/api/v2/spot/trade/place-order', {
      body: { symbol: 'BTCUSDT', side: 'buy', orderType: 'market', force: 'gtc', size: '1000' },
      headers: { paptrading: '1' },
    }),
  );
  const fills = data<Rows>(await bot.get('/api/v2/spot/trade/fills', { query: { symbol: 'BTCUSDT' } }));
  assert.equal(fills.length, 1);
  assert.equal(fills[0]?.orderId, placed.orderId);
  assert.equal(fills[0]?.priceAvg, '60040');
  assert.equal(fills[0]?.size, '0.016655');
  const uid = server.credentials.uid;
  const wallet = (await operator.getAccount(uid)).wallets.spot ?? {};
  assert.equal(wallet.BTC?.available, '2.01663834');
  assert.equal(wallet.USDT?.available, '99000.0338');

  // A limit buy at 59900 rests below the best bid; the index falls to 59800 and the ladder
  // follows: its best ask ⌈59829.9 / 20⌉ × 20 = 59840 crosses the bid, which fills at 59900.
  const resting = data<{ orderId: string }>(
    await bot.post('/api/v2/spot/trade/place-order', {
      body: {
        symbol: 'BTCUSDT',
        side: 'buy',
        orderType: 'limit',
        force: 'gtc',
        price: '59900',
        size: '0.01',
      },
    }),
  );
  const open = data<Rows>(
    await bot.get('/api/v2/spot/trade/orderInfo', { query: { orderId: resting.orderId } }),
  );
  assert.equal(open[0]?.status, 'live');
  await operator.call('PUT', '/admin/v1/prices', {
    category: 'SPOT',
    symbol: 'BTCUSDT',
    indexPrice: '59800',
  });
  await server.market.liquidity.requote();
  const done = data<Rows>(
    await bot.get('/api/v2/spot/trade/orderInfo', { query: { orderId: resting.orderId } }),
  );
  assert.equal(done[0]?.status, 'filled');
  assert.equal(done[0]?.priceAvg, '59900');
  const after = (await operator.getAccount(uid)).wallets.spot ?? {};
  // + 0.01 BTC − 0.00001 fee; − 599 USDT.
  assert.equal(after.BTC?.available, '2.02662834');
  assert.equal(after.USDT?.available, '98401.0338');
  const bills = data<Rows>(await bot.get('/api/v2/spot/account/bills', { query: { coin: 'BTC' } }));
  assert.ok(bills.length >= 3, JSON.stringify(bills));

  const moved = data<{ asks: string[][]; bids: string[][] }>(
    await publicGet(server.url, '/api/v2/spot/market/orderbook', 'symbol=BTCUSDT&limit=1'),
  );
  // 83556 lots at 59840, less the 10000 the bot took.
  assert.deepEqual(moved.asks, [['59840', '0.073556']]);
  assert.deepEqual(moved.bids, [['59760', '0.083668']]);
  const ticker = data<Rows>(await publicGet(server.url, '/api/v2/spot/market/tickers', 'symbol=BTCUSDT'));
  assert.equal(ticker[0]?.lastPr, '59900');
  assert.equal(ticker[0]?.high24h, '60040');
  assert.equal(ticker[0]?.low24h, '59900');
  assert.equal(ticker[0]?.baseVolume, '0.026655');

  assert.deepEqual(conservationImbalances(state()), []);
  const house = server.market.liquidity.accountUid;
  assert.ok(house);
  assert.equal(state().accounts.get(house)?.label, 'liquidity-provider');
});

test('liquidity provider when restarted finds its house account instead of making another', async (t) => {
  const first = await serverFor(t, { env: { BOURSE_LIQUIDITY: 'on', BOURSE_LIQUIDITY_INTERVAL: '3600000' } });
  await first.market.liquidity.requote();
  const uid = first.market.liquidity.accountUid;
  await first.stop();
  const second = await serverFor(t, {
    dataDir: first.dataDir,
    env: { BOURSE_LIQUIDITY: 'on', BOURSE_LIQUIDITY_INTERVAL: '3600000' },
  });
  const seq = second.services.sequencer.lastSeq;
  await second.market.liquidity.requote();
  assert.equal(second.market.liquidity.accountUid, uid);
  assert.equal(second.services.sequencer.lastSeq, seq, 'the standing ladder needs no command');
  await first.close();
});
