/**
 * v2 futures (mix) trading over real HTTP: batch-place-order answers every item in its place
 * (an item that does not parse never turns the answer into a refusal of orders already placed);
 * the order routes act on orders of the named product type only, whatever orderId a
 * futures-only key names.
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

test('v2 mix batch-place-order when an item is not an object or its clientOid is not a string answers it in the failure list', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h, { funds: [['usdt_futures', 'USDT', '10000']] });
  const { orderType: _type, force: _force, ...defaults } = mixOrder({});
  const lists = data<{
    successList: { clientOid: string }[];
    failureList: { clientOid: string; errorCode: string }[];
  }>(
    await trader.client.post('/api/v2/mix/order/batch-place-order', {
      body: {
        ...defaults,
        orderList: [
          limitBuy('first', '50000'),
          null,
          ['x'],
          { ...limitBuy('x', '50000'), clientOid: { $ne: '' } },
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
  const pending = data<{ entrustedList: { clientOid: string }[] }>(
    await trader.client.get('/api/v2/mix/order/orders-pending', { query: { productType: 'USDT-FUTURES' } }),
  );
  assert.deepEqual(pending.entrustedList.map((order) => order.clientOid).sort(), ['first', 'last']);
});

test('v2 mix order routes when the orderId is a spot order answer not found and leave it open', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h, {
    funds: [
      ['spot', 'USDT', '10000'],
      ['usdt_futures', 'USDT', '10000'],
    ],
  });
  const futuresOnly = await h.operator.createApiKey(trader.uid, { permissions: ['contract_trade'] });
  const futures = new SigningClient(h.server.url, futuresOnly);
  const { orderId } = data<{ orderId: string }>(
    await trader.client.post('/api/v2/spot/trade/place-order', {
      body: { symbol: 'BTCUSDT', ...limitBuy('spot-1', '50000') },
    }),
  );
  const scope = { productType: 'USDT-FUTURES', symbol: 'BTCUSDT', marginCoin: 'USDT' };
  const cancel = await futures.post('/api/v2/mix/order/cancel-order', { body: { ...scope, orderId } });
  assert.equal(cancel.body?.code, '43001', cancel.text);
  const modify = await futures.post('/api/v2/mix/order/modify-order', {
    body: { ...scope, orderId, newSize: '0.02', newPrice: '49000', newClientOid: 'n1' },
  });
  assert.notEqual(modify.body?.code, '00000', modify.text);
  const batch = data<{ successList: unknown[] }>(
    await futures.post('/api/v2/mix/order/batch-cancel-orders', {
      body: { ...scope, orderIdList: [{ orderId }] },
    }),
  );
  assert.deepEqual(batch.successList, []);
  const detail = await futures.get('/api/v2/mix/order/detail', { query: { ...scope, orderId } });
  assert.notEqual(detail.body?.code, '00000', detail.text);
  const open = data<{ orderId: string; price: string }[]>(
    await trader.client.get('/api/v2/spot/trade/unfilled-orders', { query: { symbol: 'BTCUSDT' } }),
  );
  assert.deepEqual(
    open.map((order) => [order.orderId, order.price]),
    [[orderId, '50000']],
  );
});
