/**
 * The `bitget-api` SDK, unmodified, trading against bourse: RestClientV3 places, modifies,
 * queries and cancels spot orders; RestClientV2 places and cancels spot orders and runs a
 * futures round trip (open, position, close, bills).
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

async function clients(funds: [string, string, string][]) {
  const { uid } = await operator.createAccount();
  for (const [wallet, coin, amount] of funds) await operator.deposit(uid, { coin, amount, wallet });
  const key = await operator.createApiKey(uid);
  const options = {
    apiKey: key.apiKey,
    apiSecret: key.secretKey,
    apiPass: key.passphrase,
    baseUrl: server.url,
  };
  return { uid, v2: new RestClientV2(options), v3: new RestClientV3(options) };
}

test('RestClientV3 places, modifies, queries and cancels a spot order', async () => {
  const { v3 } = await clients([['spot', 'USDT', '1000']]);
  const placed = await v3.submitNewOrder({
    category: 'SPOT',
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'limit',
    qty: '0.001',
    price: '59000',
    clientOid: 'sdk-v3-1',
  });
  assert.equal(placed.code, '00000');
  const modified = await v3.modifyOrder({
    orderId: placed.data.orderId,
    price: '59100',
    qty: '0.002',
  } as never);
  assert.equal(modified.data.orderId, placed.data.orderId);
  const info = await v3.getOrderInfo({ clientOid: 'sdk-v3-1' });
  assert.equal(info.data.price, '59100');
  assert.equal(info.data.qty, '0.002');
  assert.equal(info.data.orderStatus, 'live');
  const open = await v3.getUnfilledOrders({ category: 'SPOT' });
  assert.equal(open.data.list.length, 1);
  const cancelled = await v3.cancelOrder({ orderId: placed.data.orderId } as never);
  assert.equal(cancelled.data.orderId, placed.data.orderId);
  const after = await v3.getOrderInfo({ orderId: placed.data.orderId });
  assert.equal(after.data.orderStatus, 'cancelled');
  const batch = await v3.placeBatchOrders([
    { category: 'SPOT', symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', qty: '0.001', price: '58000' },
    {
      category: 'SPOT',
      symbol: 'BTCUSDT',
      side: 'buy',
      orderType: 'limit',
      qty: '0.001',
      price: '58000.001',
    },
  ] as never);
  assert.equal(batch.data.length, 2);
  assert.ok(batch.data[0]?.orderId);
  assert.equal((batch.data[1] as unknown as { code: string }).code, '25244');
});

test('RestClientV2 places and cancels a spot order and reads it back', async () => {
  const { v2 } = await clients([['spot', 'USDT', '1000']]);
  const placed = await v2.spotSubmitOrder({
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'limit',
    force: 'gtc',
    price: '59000',
    size: '0.001',
  });
  const [order] = (await v2.getSpotOrder({ orderId: placed.data.orderId })).data;
  assert.equal(order?.status, 'live');
  await v2.spotCancelOrder({ symbol: 'BTCUSDT', orderId: placed.data.orderId });
  const [cancelled] = (await v2.getSpotOrder({ orderId: placed.data.orderId })).data;
  assert.equal(cancelled?.status, 'cancelled');
});

test('RestClientV2 runs a futures round trip: open, position, close, bills', async () => {
  const maker = await clients([['usdt_futures', 'USDT', '10000']]);
  const taker = await clients([['usdt_futures', 'USDT', '10000']]);
  const base = {
    symbol: 'BTCUSDT',
    productType: 'USDT-FUTURES',
    marginMode: 'crossed',
    marginCoin: 'USDT',
  } as const;
  await maker.v2.futuresSubmitOrder({
    ...base,
    side: 'sell',
    orderType: 'limit',
    force: 'gtc',
    price: '60000',
    size: '0.01',
  } as never);
  const opened = await taker.v2.futuresSubmitOrder({
    ...base,
    side: 'buy',
    orderType: 'market',
    size: '0.01',
  } as never);
  assert.ok(opened.data.orderId);
  const positions = await taker.v2.getFuturesPositions({
    productType: 'USDT-FUTURES',
    marginCoin: 'USDT',
  } as never);
  assert.equal(positions.data[0]?.total, '0.01');
  await maker.v2.futuresSubmitOrder({
    ...base,
    side: 'buy',
    orderType: 'limit',
    force: 'gtc',
    price: '60000',
    size: '0.01',
    reduceOnly: 'YES',
  } as never);
  await taker.v2.futuresSubmitOrder({
    ...base,
    side: 'sell',
    orderType: 'market',
    size: '0.01',
    reduceOnly: 'YES',
  } as never);
  const after = await taker.v2.getFuturesPositions({
    productType: 'USDT-FUTURES',
    marginCoin: 'USDT',
  } as never);
  assert.deepEqual(after.data, []);
  const bills = await taker.v2.getFuturesAccountBills({ productType: 'USDT-FUTURES' } as never);
  // Two taker fees of 600 × 0.0006 = 0.36; no PnL at the same price.
  assert.deepEqual(
    bills.data.bills.map((bill: { businessType: string; fee: string }) => [bill.businessType, bill.fee]),
    [
      ['sell', '-0.36'],
      ['buy', '-0.36'],
      ['deposit', '0'],
    ],
  );
  const assets = await taker.v2.getFuturesAccountAssets({ productType: 'USDT-FUTURES' } as never);
  assert.equal(assets.data[0]?.available, '9999.28');
});

test('the SDK reaches the rest of the spec: v2 spot batch, v3 fills, repayable coins, union trio', async () => {
  try {
    await restOfTheSpec();
  } catch (error) {
    throw new Error(`SDK call failed: ${JSON.stringify((error as { body?: unknown }).body ?? error)}`);
  }
});

async function restOfTheSpec(): Promise<void> {
  const seller = await clients([['spot', 'BTC', '1']]);
  const buyer = await clients([
    ['spot', 'USDT', '10000'],
    ['crossed_margin', 'USDT', '100'],
  ]);
  const batch = await seller.v2.spotBatchSubmitOrders({
    symbol: 'BTCUSDT',
    batchMode: 'single',
    orderList: [
      {
        side: 'sell',
        orderType: 'limit',
        force: 'gtc',
        price: '60000',
        size: '0.01',
        clientOid: 'sdk-batch-1',
      },
      {
        side: 'sell',
        orderType: 'limit',
        force: 'gtc',
        price: '60000.001',
        size: '0.01',
        clientOid: 'sdk-batch-2',
      },
    ],
  } as never);
  assert.equal(batch.data.successList.length, 1);
  assert.equal(batch.data.failureList[0]?.errorCode, '41103');
  await buyer.v3.submitNewOrder({
    category: 'SPOT',
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'limit',
    qty: '0.01',
    price: '60000',
  });
  const fills = await buyer.v3.getTradeFills();
  assert.deepEqual(
    fills.data.list.map((fill: { execPrice: string; execQty: string; tradeScope: string }) => [
      fill.execPrice,
      fill.execQty,
      fill.tradeScope,
    ]),
    [['60000', '0.01', 'taker']],
  );
  // A margin buy of 0.004 × 60000 = 240 USDT with 100 in the wallet borrows 140 (3× allows 200).
  await operatorMarginSell();
  await buyer.v3.submitNewOrder({
    category: 'MARGIN',
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'limit',
    qty: '0.004',
    price: '60000',
  });
  const repayable = await buyer.v3.getRepayableCoins();
  assert.equal(repayable.data.repayableCoinList[0]?.coin, 'USDT');
  // 140 plus one hour of interest: 140 × 0.000126279 / 24 = 0.00073663 (rounded up).
  assert.equal(repayable.data.repayableCoinList[0]?.size, '140.00073663');
  const usdt = await buyer.v2.getSwitchUnionUsdt();
  assert.equal(usdt.data.usdtAmount, '0');
  const limits = await buyer.v2.getUnionTransferLimits({ coin: 'USDT' });
  assert.deepEqual(limits.data, { coin: 'USDT', maxTransferIn: '9400' });
}

/** A MARGIN seller at 60000 so that the margin buy fills. */
async function operatorMarginSell(): Promise<void> {
  const maker = await clients([['crossed_margin', 'BTC', '1']]);
  await maker.v3.submitNewOrder({
    category: 'MARGIN',
    symbol: 'BTCUSDT',
    side: 'sell',
    orderType: 'limit',
    qty: '0.004',
    price: '60000',
  });
}
