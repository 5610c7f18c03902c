/**
 * The `bitget-api` SDK, unmodified, with plan orders: RestClientV2 places a trigger order and a
 * trailing stop, lists them, cancels them, reads the history, and sees a trigger fire when the
 * operator moves the price; RestClientV3 runs a TP/SL strategy order through its life.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RestClientV2, RestClientV3 } from 'bitget-api';
import { OperatorClient } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';

let server: TestServer;
let operator: OperatorClient;

before(async () => {
  server = await startTestServer();
  operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
});

after(() => server.close());

async function client(usdt: string): Promise<RestClientV2> {
  const { uid } = await operator.createAccount();
  await operator.deposit(uid, { coin: 'USDT', amount: usdt, wallet: 'usdt_futures' });
  const key = await operator.createApiKey(uid);
  return new RestClientV2({
    apiKey: key.apiKey,
    apiSecret: key.secretKey,
    apiPass: key.passphrase,
    baseUrl: server.url,
  });
}

const BASE = {
  symbol: 'BTCUSDT',
  productType: 'USDT-FUTURES',
  marginMode: 'crossed',
  marginCoin: 'USDT',
} as const;

test('RestClientV2 places, lists and cancels a trigger order and a trailing stop', async () => {
  const v2 = await client('10000');
  const trigger = await v2.futuresSubmitPlanOrder({
    ...BASE,
    planType: 'normal_plan',
    size: '0.01',
    triggerPrice: '61000',
    triggerType: 'mark_price',
    side: 'buy',
    orderType: 'limit',
    price: '61100',
    clientOid: 'sdk-trigger-1',
  });
  assert.equal(trigger.code, '00000');
  assert.equal(trigger.data.clientOid, 'sdk-trigger-1');
  const trailing = await v2.futuresSubmitPlanOrder({
    ...BASE,
    planType: 'track_plan',
    size: '0.01',
    triggerPrice: '59000',
    triggerType: 'mark_price',
    callbackRatio: '1.5',
    side: 'sell',
    orderType: 'market',
  });
  assert.equal(trailing.code, '00000');

  const open = await v2.getFuturesPlanOrders({ productType: 'USDT-FUTURES', planType: 'normal_plan' });
  assert.deepEqual(
    open.data.entrustedList.map((row) => [row.orderId, row.planStatus, row.triggerPrice, row.price]),
    [[trigger.data.orderId, 'live', '61000', '61100']],
  );
  const track = await v2.getFuturesPlanOrders({ productType: 'USDT-FUTURES', planType: 'track_plan' });
  assert.deepEqual(
    track.data.entrustedList.map((row) => [row.orderId, row.callbackRatio]),
    [[trailing.data.orderId, '1.5']],
  );

  const cancelled = await v2.futuresCancelPlanOrder({
    productType: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    orderIdList: [{ orderId: trigger.data.orderId }],
  });
  assert.deepEqual(
    cancelled.data.successList.map((item) => item.orderId),
    [trigger.data.orderId],
  );
  const cancelledTrailing = await v2.futuresCancelPlanOrder({
    productType: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    planType: 'moving_plan',
  });
  assert.deepEqual(
    cancelledTrailing.data.successList.map((item) => item.orderId),
    [trailing.data.orderId],
  );

  const ended = await v2.getFuturesHistoricPlanOrders({
    productType: 'USDT-FUTURES',
    planType: 'normal_plan',
  });
  assert.deepEqual(
    ended.data.entrustedList.map((row) => [row.orderId, row.planStatus]),
    [[trigger.data.orderId, 'cancelled']],
  );
});

test('RestClientV2 sees its trigger order execute when the mark price reaches it', async () => {
  const v2 = await client('10000');
  const maker = await client('100000');
  const ask = await maker.futuresSubmitOrder({
    ...BASE,
    size: '0.01',
    price: '61050',
    side: 'sell',
    orderType: 'limit',
    force: 'gtc',
  });
  assert.equal(ask.code, '00000');
  const placed = await v2.futuresSubmitPlanOrder({
    ...BASE,
    planType: 'normal_plan',
    size: '0.01',
    triggerPrice: '61000',
    triggerType: 'mark_price',
    side: 'buy',
    orderType: 'market',
  });
  await operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice: '61000' });
  const ended = await v2.getFuturesHistoricPlanOrders({
    productType: 'USDT-FUTURES',
    planType: 'normal_plan',
  });
  const [row] = ended.data.entrustedList;
  assert.equal(row?.orderId, placed.data.orderId);
  assert.equal(row?.planStatus, 'executed');
  assert.equal(row?.priceAvg, '61050');
  const order = await v2.getFuturesOrder({
    symbol: 'BTCUSDT',
    productType: 'USDT-FUTURES',
    orderId: row?.executeOrderId ?? '',
  });
  assert.equal(order.data.state, 'filled');
});

test('RestClientV3 places, lists, modifies and cancels a TP/SL strategy order', async () => {
  const account = async (usdt: string) => {
    const { uid } = await operator.createAccount({ mode: 'unified' });
    await operator.deposit(uid, { coin: 'USDT', amount: usdt, wallet: 'unified' });
    const key = await operator.createApiKey(uid);
    return new RestClientV3({
      apiKey: key.apiKey,
      apiSecret: key.secretKey,
      apiPass: key.passphrase,
      baseUrl: server.url,
    });
  };
  const v3 = await account('10000');
  const maker = await account('100000');
  const item = {
    category: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    orderType: 'limit',
    qty: '0.1',
    price: '60000',
  } as const;
  await maker.submitNewOrder({ ...item, side: 'sell' });
  await v3.submitNewOrder({ ...item, side: 'buy' });
  const placed = await v3.submitStrategyOrder({
    category: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    type: 'tpsl',
    posSide: 'long',
    takeProfit: '62000',
    tpTriggerBy: 'mark',
    stopLoss: '58000',
    slTriggerBy: 'mark',
    clientOid: 'sdk-v3-tpsl',
  });
  assert.equal(placed.code, '00000');
  const open = await v3.getUnfilledStrategyOrders({ category: 'USDT-FUTURES' });
  assert.deepEqual(
    open.data.map((row) => [row.orderId, row.status, row.takeProfit, row.stopLoss]),
    [[placed.data.orderId, 'pending', '62000', '58000']],
  );
  const modified = await v3.modifyStrategyOrder({
    orderId: placed.data.orderId,
    qty: '0.1',
    stopLoss: '57000',
  });
  assert.equal(modified.data.orderId, placed.data.orderId);
  const cancelled = await v3.cancelStrategyOrder({ orderId: placed.data.orderId });
  assert.equal(cancelled.code, '00000');
  const ended = await v3.getHistoryStrategyOrders({ category: 'USDT-FUTURES' });
  assert.deepEqual(
    ended.data.list.map((row) => [row.orderId, row.status, row.stopLoss]),
    [[placed.data.orderId, 'cancelled', '57000']],
  );
});
