/**
 * v2 futures (mix) trading over real HTTP: batch-place-order answers every item in its place
 * (an item that does not parse never turns the answer into a refusal of orders already placed).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mixOrder } from '../../support/scenario.ts';
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
