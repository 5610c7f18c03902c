/**
 * A server at its defaults (moving prices, the liquidity provider quoting every book) seen by
 * futures bots through unmodified clients: the bitget-api SDK fills a market order on every
 * listed contract (USDT-, USDC- and coin-margined, the delivery contract, the demo product
 * types), a limit order when the price comes to it and a triggered market plan; ccxt opens a
 * USDT-M position with a market order. Nobody but the house provides liquidity here.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RestClientV2 } from 'bitget-api';
import ccxt from 'ccxt';
import { isInverse, type Category } from '../../src/domain/category.ts';
import { DEFAULT_FEED } from '../../src/market/feed-config.ts';
import { OperatorClient } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';

const PRODUCT_TYPES: Category[] = [
  'USDT-FUTURES',
  'USDC-FUTURES',
  'COIN-FUTURES',
  'SUSDT-FUTURES',
  'SUSDC-FUTURES',
  'SCOIN-FUTURES',
];

let server: TestServer;
let operator: OperatorClient;
let v2: RestClientV2;

before(async () => {
  // Only what the test support turns off (feed, liquidity) is set back to its default.
  server = await startTestServer({ env: { BOURSE_FEED: DEFAULT_FEED, BOURSE_LIQUIDITY: 'on' } });
  operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { apiKey, secretKey, passphrase } = server.credentials;
  v2 = new RestClientV2({ apiKey, apiSecret: secretKey, apiPass: passphrase, baseUrl: server.url });
  // The demo account holds BTC in its coin-margined wallet; ETHUSD needs ETH there.
  await operator.deposit(server.credentials.uid, { coin: 'ETH', amount: '20', wallet: 'coin_futures' });
  await server.market.liquidity.requote();
});

after(() => server.close());

/**
 * What the server's timers would do next, done now: the feed carries an operator price to
 * the rest of its stream (BTC of every category moves together), then the house re-quotes.
 */
async function settle(): Promise<void> {
  await server.market.feeds.poll();
  await server.market.liquidity.requote();
}

interface Contract {
  symbol: string;
  baseCoin: string;
  quoteCoin: string;
  supportMarginCoins: string[];
  symbolType: string;
  deliveryStartTime: string;
}

async function contractsOf(productType: Category): Promise<Contract[]> {
  const answer = await v2.getFuturesContractConfig({ productType } as never);
  return answer.data as unknown as Contract[];
}

/** About 600 quote units of the contract: USD contracts, or base coin at ~60000 / ~3000. */
function sizeFor(productType: Category, contract: Contract): string {
  if (isInverse(productType)) return '600';
  return contract.baseCoin.endsWith('BTC') ? '0.01' : '0.2';
}

async function orderState(productType: Category, symbol: string, orderId: string) {
  const order = await v2.getFuturesOrder({ productType, symbol, orderId } as never);
  return order.data as unknown as { state: string; priceAvg: string; baseVolume: string };
}

test('a market order on every listed futures contract fills against the house at a default server', async () => {
  const filled: string[] = [];
  for (const productType of PRODUCT_TYPES) {
    for (const contract of await contractsOf(productType)) {
      const size = sizeFor(productType, contract);
      const placed = await v2.futuresSubmitOrder({
        productType,
        symbol: contract.symbol,
        marginMode: 'crossed',
        marginCoin: contract.supportMarginCoins[0],
        side: 'buy',
        orderType: 'market',
        size,
      } as never);
      const order = await orderState(productType, contract.symbol, placed.data.orderId);
      assert.equal(order.state, 'filled', `${productType} ${contract.symbol}`);
      assert.equal(order.baseVolume, size, `${productType} ${contract.symbol}`);
      filled.push(`${productType}:${contract.symbol}`);
    }
  }
  const expected = [
    'USDT-FUTURES:BTCUSDT',
    'USDT-FUTURES:ETHUSDT',
    'USDC-FUTURES:BTCPERP',
    'USDC-FUTURES:ETHPERP',
    'COIN-FUTURES:BTCUSD',
    'COIN-FUTURES:ETHUSD',
    'SUSDT-FUTURES:SBTCSUSDT',
    'SUSDT-FUTURES:SETHSUSDT',
    'SUSDC-FUTURES:SBTCSPERP',
    'SCOIN-FUTURES:SBTCSUSD',
  ];
  // The December 2026 delivery contract is listed until its delivery window opens.
  if (Date.now() < Date.UTC(2026, 11, 25, 7, 50)) expected.push('COIN-FUTURES:BTCUSDZ26');
  assert.deepEqual(filled.sort(), expected.sort());
});

test('a futures limit order rests, then fills when the price comes to it', async () => {
  for (const [productType, symbol, marginCoin, size] of [
    ['USDT-FUTURES', 'BTCUSDT', 'USDT', '0.01'],
    ['COIN-FUTURES', 'BTCUSD', 'BTC', '600'],
  ] as const) {
    await settle();
    const depth = await v2.getFuturesMergeDepth({ productType, symbol } as never);
    const bestBid = Number((depth.data as unknown as { bids: string[][] }).bids[0]?.[0]);
    const price = String(Math.floor(bestBid * 0.995));
    const placed = await v2.futuresSubmitOrder({
      productType,
      symbol,
      marginMode: 'crossed',
      marginCoin,
      side: 'buy',
      orderType: 'limit',
      force: 'gtc',
      price,
      size,
    } as never);
    assert.equal((await orderState(productType, symbol, placed.data.orderId)).state, 'live');
    // The index falls 1 % below the bid: the house's new asks reach it and it fills there.
    const index = String(Math.floor(Number(price) * 0.99));
    await operator.setPrice({ category: productType, symbol, indexPrice: index });
    await settle();
    const order = await orderState(productType, symbol, placed.data.orderId);
    assert.equal(order.state, 'filled', `${productType} ${symbol}`);
    const fills = await v2.getFuturesFills({ productType, symbol, orderId: placed.data.orderId } as never);
    const list = (fills.data as unknown as { fillList: { price: string; tradeScope: string }[] }).fillList;
    assert.deepEqual(
      list.map((fill) => [Number(fill.price), fill.tradeScope]),
      [[Number(price), 'maker']],
    );
  }
});

test('a triggered market plan executes against the house instead of failing', async () => {
  await settle();
  const symbolPrice = await v2.getFuturesSymbolPrice({
    productType: 'USDT-FUTURES',
    symbol: 'ETHUSDT',
  } as never);
  const index = Number((symbolPrice.data as unknown as { indexPrice: string }[])[0]?.indexPrice);
  const base = { productType: 'USDT-FUTURES', symbol: 'ETHUSDT', marginMode: 'crossed', marginCoin: 'USDT' };
  // The mark lags a jump by the book's premium (clamped at 0.5 %), so the trigger at +1.3 %
  // is reached while the house re-quotes around the new index at +1.7 %.
  const placed = await v2.futuresSubmitPlanOrder({
    ...base,
    planType: 'normal_plan',
    size: '0.2',
    triggerPrice: (index * 1.013).toFixed(2),
    triggerType: 'mark_price',
    side: 'buy',
    orderType: 'market',
  } as never);
  await operator.setPrice({
    category: 'USDT-FUTURES',
    symbol: 'ETHUSDT',
    indexPrice: (index * 1.017).toFixed(2),
  });
  await settle();
  const ended = await v2.getFuturesHistoricPlanOrders({
    productType: 'USDT-FUTURES',
    planType: 'normal_plan',
  } as never);
  const rows = (ended.data as unknown as { entrustedList: Record<string, string>[] }).entrustedList;
  const row = rows.find((entry) => entry.orderId === placed.data.orderId);
  assert.equal(row?.planStatus, 'executed', JSON.stringify(row));
  const order = await orderState('USDT-FUTURES', 'ETHUSDT', row?.executeOrderId ?? '');
  assert.equal(order.state, 'filled');
  assert.ok(Number(order.priceAvg) > index * 1.017, `filled at ${order.priceAvg}, an ask of the new ladder`);
});

test('ccxt createOrder market on BTC/USDT:USDT opens a position against the house', async () => {
  const { uid } = await operator.createAccount();
  await operator.deposit(uid, { coin: 'USDT', amount: '10000', wallet: 'usdt_futures' });
  const key = await operator.createApiKey(uid);
  const exchange = new ccxt.bitget({ apiKey: key.apiKey, secret: key.secretKey, password: key.passphrase });
  const urls = exchange.urls as { api: Record<string, string> };
  urls.api = Object.fromEntries(Object.keys(urls.api).map((section) => [section, server.url]));
  await exchange.loadMarkets();
  const order = await exchange.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.01);
  assert.ok(order.id);
  const positions = await exchange.fetchPositions(['BTC/USDT:USDT']);
  assert.deepEqual(
    positions.map((position) => [position.symbol, position.side, position.contracts]),
    [['BTC/USDT:USDT', 'long', 0.01]],
  );
});
