/**
 * Public market endpoints: the shapes ccxt and bitget-api parse (wire.md §5.1, §5.5,
 * endpoints.md §1–3), candles and tickers computed from trades on a simulated clock, and the
 * venue's codes for bad input. Trades: a seller rests 0.1 BTC at 60000 and 0.1 at 60100; a
 * buyer takes 0.05 at 60000, then (a minute later) 0.1 at 60000/60100.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { publicGet } from '../../support/http.ts';
import { OperatorClient } from '../../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../../support/server.ts';
import { SigningClient } from '../../support/signing.ts';

type Rows = Record<string, unknown>[];

async function ok<T>(url: string, path: string, query = ''): Promise<T> {
  const response = await publicGet<T>(url, path, query);
  assert.equal(response.body?.code, '00000', `${path}?${query}: ${response.text}`);
  return response.body.data;
}

test('loadMarkets bootstrap when called as ccxt does answers 00000 for every call', async (t) => {
  const server = await serverFor(t);
  const coins = await ok<Rows>(server.url, '/api/v2/spot/public/coins');
  assert.deepEqual(
    coins.map((coin) => coin.coin),
    ['BTC', 'USDT', 'ETH', 'USDC', 'USD', 'SBTC', 'SUSDT', 'SETH', 'SUSDC'],
  );
  assert.equal((coins[0]?.chains as Rows)[0]?.withdrawable, 'true');
  const symbols = await ok<Rows>(server.url, '/api/v2/spot/public/symbols');
  assert.equal(symbols.length, 2);
  assert.ok(symbols.every((row) => !('symbolType' in row) && row.status === 'online'));
  const margin = await ok<Rows>(server.url, '/api/v2/margin/currencies');
  assert.equal(margin[0]?.isBorrowable, true);
  const counts: Record<string, number> = {};
  for (const productType of [
    'USDT-FUTURES',
    'COIN-FUTURES',
    'USDC-FUTURES',
    'SUSDT-FUTURES',
    'SCOIN-FUTURES',
    'SUSDC-FUTURES',
  ]) {
    const rows = await ok<Rows>(server.url, '/api/v2/mix/market/contracts', `productType=${productType}`);
    counts[productType] = rows.length;
    for (const row of rows) assert.ok(Array.isArray(row.supportMarginCoins) && row.symbolStatus === 'normal');
  }
  assert.deepEqual(counts, {
    'USDT-FUTURES': 2,
    'COIN-FUTURES': 3,
    'USDC-FUTURES': 2,
    'SUSDT-FUTURES': 2,
    'SCOIN-FUTURES': 1,
    'SUSDC-FUTURES': 1,
  });
  const btc = (
    await ok<Rows>(server.url, '/api/v2/mix/market/contracts', 'productType=usdt-futures&symbol=BTCUSDT')
  )[0];
  assert.equal(btc?.priceEndStep, '1');
  assert.equal(btc?.pricePlace, '1');
  const inverse = (
    await ok<Rows>(server.url, '/api/v2/mix/market/contracts', 'productType=COIN-FUTURES&symbol=BTCUSD')
  )[0];
  assert.equal(inverse?.priceEndStep, '5');
});

test('market endpoints when given bad input answer with the venue codes', async (t) => {
  const server = await serverFor(t);
  const cases: [string, string, string, number][] = [
    ['/api/v2/mix/market/ticker', 'symbol=BTCUSDT', '40019', 400],
    ['/api/v2/mix/market/ticker', 'symbol=BTCUSDT&productType=SPOT', '40020', 400],
    ['/api/v2/spot/market/candles', 'symbol=BTCUSDT&granularity=7min', '40020', 400],
    ['/api/v2/spot/market/orderbook', 'symbol=NOPEUSDT', '40034', 400],
    ['/api/v2/spot/market/orderbook', 'symbol=BTCUSDT&type=step9', '40020', 400],
    ['/api/v3/market/tickers', 'category=SUSDT-FUTURES', '40020', 400],
    ['/api/v3/market/orderbook', 'category=SPOT&symbol=NOPE', '25100', 400],
    ['/api/v2/spot/market/history-candles', 'symbol=BTCUSDT&granularity=1min', '40019', 400],
    ['/api/v2/spot/market/fills', 'symbol=BTCUSDT&limit=abc', '40020', 400],
  ];
  for (const [path, query, code, status] of cases) {
    const response = await publicGet(server.url, path, query);
    assert.equal(response.body?.code, code, `${path}?${query}: ${response.text}`);
    assert.equal(response.status, status);
  }
});

test('tickers, candles and trades when two accounts trade are computed from the trades', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_CLOCK: 'simulated' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const trader = async (coin: string, amount: string) => {
    const { uid } = await operator.createAccount();
    await operator.deposit(uid, { coin, amount, wallet: 'spot' });
    return new SigningClient(server.url, await operator.createApiKey(uid));
  };
  const seller = await trader('BTC', '1');
  const buyer = await trader('USDT', '100000');
  const place = async (client: SigningClient, body: Record<string, string>) => {
    const response = await client.post('/api/v2/spot/trade/place-order', {
      body: { symbol: 'BTCUSDT', orderType: 'limit', force: 'gtc', ...body },
      headers: { paptrading: '1' },
    });
    assert.equal(response.body?.code, '00000', response.text);
  };
  await place(seller, { side: 'sell', price: '60000', size: '0.1' });
  await place(seller, { side: 'sell', price: '60100', size: '0.1' });
  await place(buyer, { side: 'buy', price: '60000', size: '0.05' });
  const firstMs = server.services.sequencer.exchange.state.nowMs;
  await operator.call('POST', '/admin/v1/clock/advance', { ms: '60000' });
  await place(buyer, { side: 'buy', price: '60100', size: '0.1' });

  const trades = await ok<Rows>(server.url, '/api/v2/spot/market/fills', 'symbol=BTCUSDT');
  assert.deepEqual(
    trades.map((trade) => [trade.price, trade.size, trade.side]),
    [
      ['60100', '0.05', 'buy'],
      ['60000', '0.05', 'buy'],
      ['60000', '0.05', 'buy'],
    ],
  );
  const v3 = await ok<Rows>(server.url, '/api/v3/market/fills', 'category=SPOT&symbol=BTCUSDT&limit=1');
  assert.deepEqual(Object.keys(v3[0] ?? {}), ['execId', 'price', 'size', 'side', 'ts', 'isRPI']);

  // 1-minute candles: first minute one trade (0.05 at 60000 = 3000 USDT); second minute
  // 0.05 at 60000 then 0.05 at 60100 (3000 + 3005 = 6005 USDT).
  const minute = 60_000;
  const candles = await ok<string[][]>(
    server.url,
    '/api/v2/spot/market/candles',
    'symbol=BTCUSDT&granularity=1min',
  );
  assert.deepEqual(candles, [
    [
      String(Math.floor(firstMs / minute) * minute),
      '60000',
      '60000',
      '60000',
      '60000',
      '0.05',
      '3000',
      '3000',
    ],
    [
      String(Math.floor(firstMs / minute) * minute + minute),
      '60000',
      '60100',
      '60000',
      '60100',
      '0.1',
      '6005',
      '6005',
    ],
  ]);
  const day = await ok<string[][]>(
    server.url,
    '/api/v3/market/candles',
    'category=SPOT&symbol=BTCUSDT&interval=1D',
  );
  assert.deepEqual(day.at(-1)?.slice(1), ['60000', '60100', '60000', '60100', '0.15', '9005']);

  const [ticker] = await ok<Rows>(server.url, '/api/v2/spot/market/tickers', 'symbol=BTCUSDT');
  assert.equal(ticker?.lastPr, '60100');
  assert.equal(ticker?.open, '60000');
  assert.equal(ticker?.high24h, '60100');
  assert.equal(ticker?.baseVolume, '0.15');
  assert.equal(ticker?.quoteVolume, '9005');
  // (60100 − 60000) ÷ 60000 = 0.0016666… → 0.00166
  assert.equal(ticker?.change24h, '0.00166');
  assert.equal(ticker?.askPr, '60100');
  assert.equal(ticker?.askSz, '0.05');
  assert.equal(ticker?.bidPr, '');
  assert.ok(!('markPrice' in (ticker ?? {})));
  const [v3Ticker] = await ok<Rows>(server.url, '/api/v3/market/tickers', 'category=SPOT&symbol=BTCUSDT');
  assert.equal(v3Ticker?.price24hPcnt, '0.00166');
  assert.equal(v3Ticker?.turnover24h, '9005');

  const depth = await ok<{ asks: string[][]; scale: string }>(
    server.url,
    '/api/v2/spot/market/merge-depth',
    'symbol=BTCUSDT&precision=scale2',
  );
  assert.deepEqual(depth.asks, [['60100', '0.05']]);
  assert.equal(depth.scale, '1');
});

test('futures market endpoints when nothing traded serve the index as mark and last price', async (t) => {
  const server = await serverFor(t);
  const [ticker] = await ok<Rows>(
    server.url,
    '/api/v2/mix/market/ticker',
    'symbol=BTCUSDT&productType=USDT-FUTURES',
  );
  assert.equal(ticker?.markPrice, '60000');
  assert.equal(ticker?.indexPrice, '60000');
  assert.equal(ticker?.lastPr, '60000');
  assert.equal(ticker?.holdingAmount, '0');
  const rate = await ok<Rows>(
    server.url,
    '/api/v2/mix/market/current-fund-rate',
    'productType=USDT-FUTURES&symbol=BTCUSDT',
  );
  assert.equal(rate[0]?.fundingRateInterval, '8');
  assert.equal(Number(rate[0]?.nextUpdate) % (8 * 3_600_000), 0);
  const interest = await ok<{ openInterestList: Rows }>(
    server.url,
    '/api/v2/mix/market/open-interest',
    'symbol=BTCUSDT&productType=USDT-FUTURES',
  );
  assert.deepEqual(interest.openInterestList, [{ symbol: 'BTCUSDT', size: '0' }]);
  const tiers = await ok<Rows>(
    server.url,
    '/api/v2/mix/market/query-position-lever',
    'symbol=BTCUSDT&productType=USDT-FUTURES',
  );
  assert.deepEqual(tiers[0], {
    symbol: 'BTCUSDT',
    level: '1',
    startUnit: '0',
    endUnit: '200000',
    leverage: '150',
    keepMarginRate: '0.004',
  });
  const index = await ok<string[][]>(
    server.url,
    '/api/v2/mix/market/history-index-candles',
    'symbol=BTCUSDT&productType=USDT-FUTURES&granularity=1m',
  );
  assert.deepEqual(index.at(-1)?.slice(1, 5), ['60000', '60000', '60000', '60000']);
  const demo = await ok<Rows>(server.url, '/api/v2/mix/market/tickers', 'productType=SUSDT-FUTURES');
  assert.deepEqual(
    demo.map((row) => row.symbol),
    ['SBTCSUSDT', 'SETHSUSDT'],
  );
  const v3Rate = await ok<Rows>(server.url, '/api/v3/market/current-fund-rate', 'symbol=ETHUSDT');
  assert.equal(v3Rate[0]?.symbol, 'ETHUSDT');
});
