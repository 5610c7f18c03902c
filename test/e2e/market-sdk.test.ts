/**
 * The newcomer's first minute, through the unmodified `bitget-api` SDK against a server with
 * the demo market on (simulated feed, liquidity provider) from a clean data directory: the
 * public market calls of RestClientV2 and RestClientV3, moving prices, a market order that
 * fills against the liquidity provider, a limit order that fills when the price reaches it,
 * and the fills and bills afterwards. `demoTrading: true` (header paptrading: 1) throughout.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RestClientV2, RestClientV3 } from 'bitget-api';
import { OperatorClient } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';

let server: TestServer;
let v2: RestClientV2;
let v3: RestClientV3;

before(async () => {
  server = await startTestServer({
    env: {
      BOURSE_CLOCK: 'simulated',
      BOURSE_FEED: '*=sim:seed=11,volatility=1.5',
      BOURSE_LIQUIDITY: 'on',
      BOURSE_LIQUIDITY_INTERVAL: '3600000',
    },
  });
  const { apiKey, secretKey, passphrase } = server.credentials;
  const options = {
    apiKey,
    apiSecret: secretKey,
    apiPass: passphrase,
    baseUrl: server.url,
    demoTrading: true,
  };
  v2 = new RestClientV2(options);
  v3 = new RestClientV3(options);
  await server.market.liquidity.requote();
});

after(() => server.close());

test('RestClientV2 public market calls answer with data computed by the server', async () => {
  assert.ok(Number((await v2.getServerTime()).data.serverTime) > 0);
  assert.ok((await v2.getSpotCoinInfo()).data.some((coin) => coin.coin === 'BTC'));
  assert.equal((await v2.getSpotSymbolInfo({ symbol: 'BTCUSDT' })).data[0]?.quantityPrecision, '6');
  assert.ok((await v2.getMarginCurrencies()).data.length >= 2);
  const [ticker] = (await v2.getSpotTicker({ symbol: 'BTCUSDT' })).data;
  assert.ok(Number(ticker?.askPr) > Number(ticker?.bidPr));
  const book = (await v2.getSpotOrderBookDepth({ symbol: 'BTCUSDT', limit: '5' })).data;
  assert.equal(book.asks.length, 5);
  assert.equal(
    (await v2.getSpotMergeDepth({ symbol: 'BTCUSDT', precision: 'scale1' })).data.precision,
    'scale1',
  );
  const contracts = await v2.getFuturesContractConfig({ productType: 'SUSDT-FUTURES' });
  assert.equal(contracts.data[0]?.symbol, 'SBTCSUSDT');
  const futures = (await v2.getFuturesTicker({ productType: 'USDT-FUTURES', symbol: 'BTCUSDT' })).data;
  assert.ok(Number(futures[0]?.markPrice) > 0);
  assert.ok((await v2.getFuturesAllTickers({ productType: 'USDC-FUTURES' })).data.length >= 2);
  await v2.getFuturesMergeDepth({ productType: 'USDT-FUTURES', symbol: 'BTCUSDT' });
  await v2.getFuturesCandles({ productType: 'USDT-FUTURES', symbol: 'BTCUSDT', granularity: '1m' });
  await v2.getFuturesRecentTrades({ productType: 'USDT-FUTURES', symbol: 'BTCUSDT' });
  await v2.getFuturesSymbolPrice({ productType: 'USDT-FUTURES', symbol: 'BTCUSDT' });
  await v2.getFuturesCurrentFundingRate({ productType: 'USDT-FUTURES', symbol: 'BTCUSDT' });
  await v2.getFuturesNextFundingTime({ productType: 'USDT-FUTURES', symbol: 'BTCUSDT' });
  await v2.getFuturesOpenInterest({ productType: 'USDT-FUTURES', symbol: 'BTCUSDT' });
  await v2.getFuturesPositionTier({ productType: 'USDT-FUTURES', symbol: 'BTCUSDT' });
  await v2.getFuturesOiLimit({ productType: 'USDT-FUTURES' });
});

test('RestClientV3 public market calls answer with data computed by the server', async () => {
  assert.ok((await v3.getInstruments({ category: 'SPOT' })).data.length >= 2);
  const [ticker] = (await v3.getTickers({ category: 'SPOT', symbol: 'ETHUSDT' })).data;
  assert.ok(Number(ticker?.ask1Price) > Number(ticker?.bid1Price));
  assert.equal((await v3.getOrderBook({ category: 'SPOT', symbol: 'ETHUSDT', limit: '3' })).data.a.length, 3);
  await v3.getCandles({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', interval: '1m', type: 'INDEX' });
  await v3.getHistoryCandles({ category: 'SPOT', symbol: 'BTCUSDT', interval: '1H' });
  await v3.getFills({ category: 'SPOT', symbol: 'BTCUSDT' });
  await v3.getCurrentFundingRate({ symbol: 'BTCUSDT' });
  await v3.getOpenInterest({ category: 'USDT-FUTURES', symbol: 'BTCUSDT' });
  await v3.getPositionTier({ category: 'USDT-FUTURES', symbol: 'BTCUSDT' });
  await v3.getContractsOi({ category: 'USDT-FUTURES' });
});

test('a newcomer sees prices move, fills a market order and a limit order, and reads fills and bills', async () => {
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const before = (await v2.getSpotTicker({ symbol: 'BTCUSDT' })).data[0]?.lastPr;
  await operator.call('POST', '/admin/v1/clock/advance', { ms: '5000' });
  await server.market.feeds.poll();
  await server.market.liquidity.requote();
  const moved = (await v2.getSpotTicker({ symbol: 'BTCUSDT' })).data[0]?.lastPr;
  assert.notEqual(moved, before, 'the simulated feed moved the price');

  const market = await v2.spotSubmitOrder({
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'market',
    force: 'gtc',
    size: '100',
  });
  const [filled] = (await v2.getSpotOrder({ orderId: market.data.orderId })).data;
  assert.equal(filled?.status, 'filled');

  const [bestBid] = (await v2.getSpotOrderBookDepth({ symbol: 'BTCUSDT', limit: '1' })).data.bids;
  const price = (Number(bestBid?.[0]) - 5).toFixed(2);
  const limit = await v2.spotSubmitOrder({
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'limit',
    force: 'gtc',
    price,
    size: '0.001',
  });
  assert.equal((await v2.getSpotOrder({ orderId: limit.data.orderId })).data[0]?.status, 'live');
  await operator.call('PUT', '/admin/v1/prices', {
    category: 'SPOT',
    symbol: 'BTCUSDT',
    indexPrice: (Number(price) - 100).toFixed(2),
  });
  await server.market.liquidity.requote();
  assert.equal((await v2.getSpotOrder({ orderId: limit.data.orderId })).data[0]?.status, 'filled');

  const fills = (await v2.getSpotFills({ symbol: 'BTCUSDT' })).data;
  assert.equal(fills.length, 2);
  const bills = (await v2.getSpotAccountBills({ coin: 'BTC' })).data;
  assert.ok(bills.length >= 2);
  const trades = (await v2.getSpotRecentTrades({ symbol: 'BTCUSDT' })).data;
  assert.equal(trades.length, 2);
  const candles = (await v2.getSpotCandles({ symbol: 'BTCUSDT', granularity: '1min' })).data;
  assert.ok(candles.length >= 1);
});
