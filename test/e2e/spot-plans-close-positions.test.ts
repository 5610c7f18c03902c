/**
 * A server at its defaults (the sim feed moving prices, the liquidity provider quoting every
 * spot and futures book) driven by unmodified clients through spot plan orders, spot
 * cancel-replace and close-positions:
 * - bitget-api RestClientV2: spotSubmitPlanOrder, getSpotCurrentPlanOrders,
 *   spotModifyPlanOrder, spotCancelPlanOrder, spotCancelPlanOrders, getSpotHistoricPlanOrders,
 *   getSpotPlanSubOrder, spotCancelandSubmitOrder, spotBatchCancelandSubmitOrder,
 *   futuresFlashClosePositions; RestClientV3: closeAllPositions;
 * - ccxt.pro bitget: watchOrders with trigger on a spot symbol (the SPOT orders-algo channel);
 * - ccxt bitget: createOrder with triggerPrice on spot (place-plan-order), fetchOpenOrders /
 *   editOrder / cancelOrder / cancelAllOrders / fetchCanceledOrders with trigger, editOrder on
 *   spot (cancel-replace-order),
 *   closePosition and closeAllPositions on a classic and a unified account.
 *
 * Plans fire by the operator's index: a spot sell stop 3 % under the price fires when the
 * index drops 4 % (the mark lags by the book's premium, clamped at 0.5 %) and sells to the
 * house's bids. Positions open and close against the house.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RestClientV2, RestClientV3 } from 'bitget-api';
import ccxt from 'ccxt';
import { DEFAULT_FEED } from '../../src/market/feed-config.ts';
import { OperatorClient } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';

let server: TestServer;
let operator: OperatorClient;

before(async () => {
  // The defaults: the sim feed, the liquidity provider, new accounts in hedge mode.
  server = await startTestServer({
    env: { BOURSE_FEED: DEFAULT_FEED, BOURSE_LIQUIDITY: 'on', BOURSE_POSITION_MODE: undefined },
  });
  operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  await server.market.liquidity.requote();
});

const exchanges: { close(): Promise<unknown> }[] = [];

after(async () => {
  for (const exchange of exchanges) await exchange.close();
  await server.close();
});

/** The operator's index, then what the server's timers would do next, done now. */
async function setPrice(category: string, indexPrice: number): Promise<void> {
  await operator.setPrice({ category, symbol: 'BTCUSDT', indexPrice: indexPrice.toFixed(2) });
  await server.market.feeds.poll();
  await server.market.liquidity.requote();
}

async function account(mode: 'classic' | 'unified', funds: [string, string, string][]) {
  const { uid } = await operator.createAccount({ mode });
  for (const [wallet, coin, amount] of funds) await operator.deposit(uid, { coin, amount, wallet });
  return operator.createApiKey(uid);
}

async function v2Client(funds: [string, string, string][]): Promise<RestClientV2> {
  const key = await account('classic', funds);
  return new RestClientV2({
    apiKey: key.apiKey,
    apiSecret: key.secretKey,
    apiPass: key.passphrase,
    baseUrl: server.url,
  });
}

async function ccxtFor(mode: 'classic' | 'unified', funds: [string, string, string][]) {
  const key = await account(mode, funds);
  const exchange = new ccxt.bitget({ apiKey: key.apiKey, secret: key.secretKey, password: key.passphrase });
  const urls = exchange.urls as { api: Record<string, string> };
  urls.api = Object.fromEntries(Object.keys(urls.api).map((section) => [section, server.url]));
  await exchange.loadMarkets();
  return exchange;
}

test('RestClientV2 runs a spot plan through place, list, modify, cancel, and one that fires', async () => {
  await setPrice('SPOT', 60000);
  const v2 = await v2Client([['spot', 'BTC', '0.1']]);
  const base = { symbol: 'BTCUSDT', side: 'sell', triggerType: 'mark_price', orderType: 'market' } as const;
  const parked = await v2.spotSubmitPlanOrder({
    ...base,
    triggerPrice: '50000',
    size: '0.01',
    clientOid: 'parked',
  });
  assert.equal(parked.data.clientOid, 'parked');
  const modified = await v2.spotModifyPlanOrder({
    orderId: parked.data.orderId,
    triggerPrice: '51000',
    orderType: 'limit',
    executePrice: '50900',
    size: '0.02',
  });
  assert.equal(modified.data.orderId, parked.data.orderId);
  const open = await v2.getSpotCurrentPlanOrders({ symbol: 'BTCUSDT' });
  assert.deepEqual(
    open.data.orderList.map((row) => [row.orderId, row.triggerPrice, row.executePrice, row.size, row.status]),
    [[parked.data.orderId, '51000', '50900', '0.02', 'live']],
  );
  assert.equal((await v2.spotCancelPlanOrder({ clientOid: 'parked' })).data.result, 'success');

  const stop = await v2.spotSubmitPlanOrder({ ...base, triggerPrice: '58200', size: '0.01' });
  await setPrice('SPOT', 57600);
  const history = await v2.getSpotHistoricPlanOrders({
    symbol: 'BTCUSDT',
    startTime: String(Date.now() - 3_600_000),
    endTime: String(Date.now() + 60_000),
  });
  assert.deepEqual(
    history.data.orderList.map((row) => [row.orderId, row.status]),
    [
      [stop.data.orderId, 'executed'],
      [parked.data.orderId, 'cancelled'],
    ],
  );
  const [sub] = (await v2.getSpotPlanSubOrder({ planOrderId: stop.data.orderId })).data;
  assert.equal(sub?.status, 'success');
  const [order] = (await v2.getSpotOrder({ orderId: sub?.orderId ?? '' })).data;
  assert.deepEqual([order?.status, order?.baseVolume], ['filled', '0.01']);
  const assets = await v2.getSpotAccountAssets({ coin: 'USDT' });
  // The sale's quote value less its 0.1 % fee, rounded up against the seller at 10^-8.
  const value = Number(order?.quoteVolume);
  assert.ok(Math.abs(Number(assets.data[0]?.available) - value * 0.999) < 1e-6, JSON.stringify(assets.data));

  await v2.spotSubmitPlanOrder({ ...base, triggerPrice: '40000', size: '0.01' });
  const cancelled = await v2.spotCancelPlanOrders({ symbolList: ['BTCUSDT'] });
  assert.equal(cancelled.data.successList.length, 1);
});

test('RestClientV2 cancel-replaces spot orders singly and in a batch', async () => {
  await setPrice('SPOT', 60000);
  const v2 = await v2Client([['spot', 'USDT', '10000']]);
  const bid = (clientOid: string) =>
    v2.spotSubmitOrder({
      symbol: 'BTCUSDT',
      side: 'buy',
      orderType: 'limit',
      force: 'gtc',
      price: '55000',
      size: '0.01',
      clientOid,
    });
  const first = await bid('cr-1');
  const replaced = await v2.spotCancelandSubmitOrder({
    symbol: 'BTCUSDT',
    orderId: first.data.orderId,
    price: '55100',
    size: '0.02',
    newClientOid: 'cr-1b',
  });
  assert.deepEqual([replaced.data.clientOid, replaced.data.success], ['cr-1b', 'success']);
  await bid('cr-2');
  const batch = await v2.spotBatchCancelandSubmitOrder({
    orderList: [
      { symbol: 'BTCUSDT', clientOid: 'cr-2', price: '55200', size: '0.01', newClientOid: 'cr-2b' },
      { symbol: 'BTCUSDT', orderId: '123456789', price: '55200', size: '0.01' },
    ],
  });
  assert.deepEqual(
    batch.data.map((item) => [item.clientOid, item.success]),
    [
      ['cr-2b', 'success'],
      [null, 'failure'],
    ],
  );
  const open = await v2.getSpotOpenOrders({ symbol: 'BTCUSDT' });
  // unfilled-orders rows carry the limit price in priceAvg (a venue quirk) and in price.
  const rows = open.data as unknown as { clientOid: string; price: string }[];
  assert.deepEqual(rows.map((order) => [order.clientOid, order.price]).sort(), [
    ['cr-1b', '55100'],
    ['cr-2b', '55200'],
  ]);
});

test('ccxt places, lists, edits and cancels a spot trigger order and edits a spot order', async () => {
  await setPrice('SPOT', 60000);
  const exchange = await ccxtFor('classic', [
    ['spot', 'BTC', '0.1'],
    ['spot', 'USDT', '10000'],
  ]);
  const trigger = await exchange.createOrder('BTC/USDT', 'market', 'sell', 0.01, undefined, {
    triggerPrice: 50000,
  });
  const triggerId = String(trigger.id);
  const open = await exchange.fetchOpenOrders('BTC/USDT', undefined, undefined, { trigger: true });
  assert.deepEqual(
    open.map((order) => [order.id, order.triggerPrice, order.status]),
    [[triggerId, 50000, 'open']],
  );
  await exchange.editOrder(triggerId, 'BTC/USDT', 'limit', 'sell', 0.02, 50500, { triggerPrice: 51000 });
  const [edited] = await exchange.fetchOpenOrders('BTC/USDT', undefined, undefined, { trigger: true });
  assert.deepEqual([edited?.triggerPrice, edited?.price, edited?.amount], [51000, 50500, 0.02]);
  await exchange.cancelOrder(triggerId, 'BTC/USDT', { trigger: true });
  assert.deepEqual(await exchange.fetchOpenOrders('BTC/USDT', undefined, undefined, { trigger: true }), []);
  const second = await exchange.createOrder('BTC/USDT', 'limit', 'sell', 0.01, 49000, {
    triggerPrice: 49500,
  });
  await exchange.cancelAllOrders('BTC/USDT', { trigger: true });
  const cancelled = await exchange.fetchCanceledOrders('BTC/USDT', undefined, undefined, { trigger: true });
  assert.deepEqual(cancelled.map((order) => order.id).sort(), [String(second.id), triggerId].sort());

  const resting = await exchange.createOrder('BTC/USDT', 'limit', 'buy', 0.01, 55000);
  const moved = await exchange.editOrder(String(resting.id), 'BTC/USDT', 'limit', 'buy', 0.02, 55500);
  assert.notEqual(moved.id, resting.id);
  const [now] = await exchange.fetchOpenOrders('BTC/USDT');
  assert.deepEqual([now?.id, now?.price, now?.amount], [moved.id, 55500, 0.02]);
});

/** Polls `find` every 20 ms, at most 250 times. */
async function until<T>(find: () => T | undefined | false, what: string): Promise<T> {
  for (let attempt = 0; attempt < 250; attempt += 1) {
    const found = find();
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no ${what}`);
}

test('ccxt.pro watchOrders with trigger on spot sees a spot plan placed and cancelled', async () => {
  const key = await account('classic', [['spot', 'BTC', '0.1']]);
  const exchange = new ccxt.pro.bitget({
    apiKey: key.apiKey,
    secret: key.secretKey,
    password: key.passphrase,
  });
  exchanges.push(exchange);
  const ws = server.url.replace(/^http/, 'ws');
  const urls = exchange.urls as { api: Record<string, unknown> };
  urls.api = Object.fromEntries(
    Object.keys(urls.api).map((section) => [
      section,
      section === 'ws' ? { public: `${ws}/v2/ws/public`, private: `${ws}/v2/ws/private` } : server.url,
    ]),
  );
  // ccxt needs this once for plain ws:// URLs (docs/clients.md).
  await exchange.loadHttpProxyAgent();
  await exchange.loadMarkets();
  const acked: string[] = [];
  const pro = exchange as unknown as {
    handleSubscriptionStatus(client: unknown, message: { arg?: { channel?: string } }): unknown;
    triggerOrders?: { id: string; status: string; triggerPrice: number }[];
  };
  const handle = pro.handleSubscriptionStatus.bind(exchange);
  pro.handleSubscriptionStatus = (client, message) => {
    acked.push(String(message.arg?.channel));
    return handle(client, message);
  };
  void exchange.watchOrders('BTC/USDT', undefined, undefined, { trigger: true }).catch(() => undefined);
  await until(() => acked.includes('orders-algo'), 'the orders-algo acknowledgement');
  const placed = await exchange.createOrder('BTC/USDT', 'market', 'sell', 0.01, undefined, {
    triggerPrice: 45000,
  });
  const seen = await until(() => pro.triggerOrders?.find((order) => order.id === placed.id), 'the plan push');
  assert.deepEqual([seen.status, seen.triggerPrice], ['open', 45000]);
  await exchange.cancelOrder(String(placed.id), 'BTC/USDT', { trigger: true });
  await until(
    () => pro.triggerOrders?.find((order) => order.id === placed.id && order.status === 'canceled'),
    'the cancellation push',
  );
});

test('futuresFlashClosePositions and ccxt closePosition close classic positions at the house', async () => {
  await setPrice('USDT-FUTURES', 60000);
  const exchange = await ccxtFor('classic', [['usdt_futures', 'USDT', '10000']]);
  await exchange.setPositionMode(false, 'BTC/USDT:USDT');
  await exchange.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.01);
  const closed = await exchange.closePosition('BTC/USDT:USDT');
  assert.ok(closed.id);
  assert.deepEqual(await exchange.fetchPositions(['BTC/USDT:USDT']), []);
  await exchange.createOrder('BTC/USDT:USDT', 'market', 'sell', 0.01);
  const all = await exchange.closeAllPositions({ productType: 'USDT-FUTURES' });
  assert.equal(all.length, 1);
  assert.deepEqual(await exchange.fetchPositions(['BTC/USDT:USDT']), []);

  const v2 = await v2Client([['usdt_futures', 'USDT', '10000']]);
  await v2.setFuturesPositionMode({ productType: 'USDT-FUTURES', posMode: 'one_way_mode' });
  const base = {
    symbol: 'BTCUSDT',
    productType: 'USDT-FUTURES',
    marginMode: 'crossed',
    marginCoin: 'USDT',
  } as const;
  await v2.futuresSubmitOrder({ ...base, side: 'buy', orderType: 'market', size: '0.01' });
  const flash = await v2.futuresFlashClosePositions({ symbol: 'BTCUSDT', productType: 'USDT-FUTURES' });
  assert.deepEqual(
    [flash.data.successList.length, flash.data.successList[0]?.symbol, flash.data.failureList],
    [1, 'BTCUSDT', []],
  );
  await assert.rejects(v2.futuresFlashClosePositions({ productType: 'USDT-FUTURES' }), (error: unknown) => {
    assert.equal((error as { body?: { code?: string } }).body?.code, '22002');
    return true;
  });
});

test('RestClientV3 closeAllPositions and ccxt closePosition close unified positions at the house', async () => {
  await setPrice('USDT-FUTURES', 60000);
  const exchange = await ccxtFor('unified', [['unified', 'USDT', '10000']]);
  // Hedge mode (a new account's): ccxt sends posSide when `hedged`; the close takes both sides.
  await exchange.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.01, undefined, { hedged: true });
  const closed = await exchange.closePosition('BTC/USDT:USDT');
  assert.ok(closed.id);
  assert.deepEqual(await exchange.fetchPositions(['BTC/USDT:USDT']), []);

  const key = await account('unified', [['unified', 'USDT', '10000']]);
  const v3 = new RestClientV3({
    apiKey: key.apiKey,
    apiSecret: key.secretKey,
    apiPass: key.passphrase,
    baseUrl: server.url,
  });
  await v3.submitNewOrder({
    category: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    side: 'sell',
    posSide: 'short',
    orderType: 'market',
    qty: '0.01',
  });
  const all = await v3.closeAllPositions({ category: 'USDT-FUTURES', symbol: 'BTCUSDT' });
  assert.equal(all.data.list.length, 1);
  await assert.rejects(v3.closeAllPositions({ category: 'USDT-FUTURES' }), (error: unknown) => {
    assert.equal((error as { body?: { code?: string } }).body?.code, '25227');
    return true;
  });
});
