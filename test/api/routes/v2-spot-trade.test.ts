/**
 * v2 spot trading over real HTTP: batch-orders answers every item in its place (an item that
 * does not parse never turns the answer into a refusal of orders already placed); the order
 * routes act on spot orders only, whatever orderId a spot-only key names.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mixOrder } from '../../support/scenario.ts';
import { SigningClient } from '../../support/signing.ts';
import { data, harness, mainAccount } from './broker-helpers.ts';

const limitBuy = (clientOid: string, price: string) => ({
  side: 'buy',
  orderType: 'limit',
  force: 'gtc',
  price,
  size: '0.01',
  clientOid,
});

test('v2 spot batch-orders when an item is not an object or its clientOid is not a string answers it in the failure list', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h, { funds: [['spot', 'USDT', '10000']] });
  const lists = data<{
    successList: { clientOid: string }[];
    failureList: { clientOid: string; errorCode: string }[];
  }>(
    await trader.client.post('/api/v2/spot/trade/batch-orders', {
      body: {
        symbol: 'BTCUSDT',
        orderList: [
          limitBuy('first', '50000'),
          'not an order',
          7,
          { ...limitBuy('x', '50000'), clientOid: true },
          limitBuy('last', '50001'),
        ],
      },
    }),
  );
  assert.deepEqual(
    lists.successList.map((item) => item.clientOid),
    ['first', 'last'],
  );
  assert.deepEqual(
    lists.failureList.map((item) => [item.clientOid, item.errorCode]),
    [
      ['', '40017'],
      ['', '40017'],
      ['', '40020'],
    ],
  );
  const open = data<{ clientOid: string }[]>(
    await trader.client.get('/api/v2/spot/trade/unfilled-orders', { query: { symbol: 'BTCUSDT' } }),
  );
  assert.deepEqual(open.map((order) => order.clientOid).sort(), ['first', 'last']);
});

test('v2 spot order routes when the orderId is a futures order answer not found and leave it open', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h, {
    funds: [
      ['spot', 'USDT', '10000'],
      ['usdt_futures', 'USDT', '10000'],
    ],
  });
  const spotOnly = await h.operator.createApiKey(trader.uid, { permissions: ['spot_trade'] });
  const spot = new SigningClient(h.server.url, spotOnly);
  const futures = data<{ orderId: string }>(
    await trader.client.post('/api/v2/mix/order/place-order', {
      body: mixOrder({ side: 'buy', price: '50000', size: '0.01' }),
    }),
  );
  const { orderId } = futures;
  const cancel = await spot.post('/api/v2/spot/trade/cancel-order', { body: { symbol: 'BTCUSDT', orderId } });
  assert.equal(cancel.body?.code, '43001', cancel.text);
  const batch = data<{ failureList: { orderId: string }[] }>(
    await spot.post('/api/v2/spot/trade/batch-cancel-order', {
      body: { symbol: 'BTCUSDT', orderList: [{ orderId }] },
    }),
  );
  assert.deepEqual(
    batch.failureList.map((item) => item.orderId),
    [orderId],
  );
  assert.deepEqual(data(await spot.get('/api/v2/spot/trade/orderInfo', { query: { orderId } })), []);
  const pending = data<{ entrustedList: { orderId: string }[] }>(
    await trader.client.get('/api/v2/mix/order/orders-pending', { query: { productType: 'USDT-FUTURES' } }),
  );
  assert.deepEqual(
    pending.entrustedList.map((order) => order.orderId),
    [orderId],
  );
});
