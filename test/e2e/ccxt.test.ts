/**
 * ccxt's bitget class, unmodified, against bourse by pointing every `urls.api` section at the
 * server (docs/clients.md): loadMarkets (its classic bootstrap: coins, symbols, margin
 * currencies, the six contract lists, after the v3 settings probe answers 40084), balances,
 * a spot limit order placed, listed and cancelled, a market order filled, and its trades.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ccxt from 'ccxt';
import { OperatorClient } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';

let server: TestServer;
let operator: OperatorClient;

before(async () => {
  server = await startTestServer();
  operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
});

after(() => server.close());

async function exchangeFor(funds: [string, string][]) {
  const { uid } = await operator.createAccount();
  for (const [coin, amount] of funds) await operator.deposit(uid, { coin, amount });
  const key = await operator.createApiKey(uid);
  const exchange = new ccxt.bitget({ apiKey: key.apiKey, secret: key.secretKey, password: key.passphrase });
  const urls = exchange.urls as { api: Record<string, string> };
  urls.api = Object.fromEntries(Object.keys(urls.api).map((section) => [section, server.url]));
  return exchange;
}

test('ccxt bitget when pointed at bourse loads markets, trades spot and reads its trades', async () => {
  const seller = await exchangeFor([['BTC', '1']]);
  const buyer = await exchangeFor([['USDT', '10000']]);
  const markets = await buyer.loadMarkets();
  assert.ok(markets['BTC/USDT'], 'the spot market');
  assert.ok(markets['BTC/USDT:USDT'], 'the USDT-M perpetual');
  assert.equal(markets['BTC/USDT']?.precision.price, 0.01);

  const balance = await buyer.fetchBalance();
  assert.equal(balance.USDT?.free, 10000);

  const resting = await buyer.createOrder('BTC/USDT', 'limit', 'buy', 0.01, 59000);
  const open = await buyer.fetchOpenOrders('BTC/USDT');
  assert.deepEqual(
    open.map((order) => [order.id, order.price, order.amount]),
    [[resting.id, 59000, 0.01]],
  );
  await buyer.cancelOrder(String(resting.id), 'BTC/USDT');
  assert.deepEqual(await buyer.fetchOpenOrders('BTC/USDT'), []);

  await seller.loadMarkets();
  await seller.createOrder('BTC/USDT', 'limit', 'sell', 0.01, 60000);
  await buyer.createOrder('BTC/USDT', 'limit', 'buy', 0.01, 60000);
  const trades = await buyer.fetchMyTrades('BTC/USDT');
  assert.deepEqual(
    trades.map((trade) => [trade.price, trade.amount, trade.side, trade.takerOrMaker]),
    [[60000, 0.01, 'buy', 'taker']],
  );
  assert.equal(trades[0]?.fee?.currency, 'BTC');
  assert.equal(trades[0]?.fee?.cost, 0.00001);
});

test('ccxt bitget when trading the USDT-M perpetual opens a position it can read back', async () => {
  const fund = async (wallet: string) => {
    const exchange = await exchangeFor([]);
    const uid = String((await exchange.privateSpotGetV2SpotAccountInfo()).data.userId);
    await operator.deposit(uid, { coin: 'USDT', amount: '10000', wallet });
    return exchange;
  };
  const maker = await fund('usdt_futures');
  const taker = await fund('usdt_futures');
  await maker.loadMarkets();
  await taker.loadMarkets();
  await maker.createOrder('BTC/USDT:USDT', 'limit', 'sell', 0.01, 60000);
  await taker.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.01);
  const positions = await taker.fetchPositions(['BTC/USDT:USDT']);
  assert.deepEqual(
    positions.map((position) => [
      position.symbol,
      position.side,
      position.contracts,
      position.entryPrice,
      position.marginMode,
    ]),
    [['BTC/USDT:USDT', 'long', 0.01, 60000, 'cross']],
  );
  const balance = await taker.fetchBalance({ type: 'swap' });
  assert.equal(balance.USDT?.total, 9999.64, '10000 − 600 × 0.0006 taker fee');
});
