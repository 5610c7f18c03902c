/**
 * v2 spot cancel-replace-order and batch-cancel-replace-order over real HTTP: the old order
 * is cancelled and the new one placed in one step; what changes nothing is an error (single)
 * or the item's failure (batch); a replacement refused after the cancel says so in the item.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { OperatorClient } from '../../support/operator.ts';
import { data, type Row } from '../../support/scenario.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../../support/server.ts';
import { SigningClient } from '../../support/signing.ts';

const REPLACE = '/api/v2/spot/trade/cancel-replace-order';
const BATCH = '/api/v2/spot/trade/batch-cancel-replace-order';

async function setup(t: TestContext, permissions?: string[]) {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { uid } = await operator.createAccount();
  await operator.deposit(uid, { coin: 'USDT', amount: '10000', wallet: 'spot' });
  const client = new SigningClient(
    server.url,
    await operator.createApiKey(uid, permissions ? { permissions } : {}),
  );
  const bid = async (price: string, clientOid: string) =>
    data<{ orderId: string }>(
      await client.post('/api/v2/spot/trade/place-order', {
        body: {
          symbol: 'BTCUSDT',
          side: 'buy',
          orderType: 'limit',
          force: 'gtc',
          price,
          size: '0.01',
          clientOid,
        },
      }),
    ).orderId;
  const order = async (orderId: string) =>
    data<Row[]>(await client.get('/api/v2/spot/trade/orderInfo', { query: { orderId } }))[0];
  const usdt = async () =>
    data<Row[]>(await client.get('/api/v2/spot/account/assets', { query: { coin: 'USDT' } }))[0];
  return { client, bid, order, usdt };
}

test('cancel-replace-order when the order is open cancels it and places the new one', async (t) => {
  const { client, bid, order, usdt } = await setup(t);
  const oldId = await bid('59000', 'old-bid');
  const answer = data<Row>(
    await client.post(REPLACE, {
      body: {
        symbol: 'BTCUSDT',
        clientOid: 'old-bid',
        price: '59500',
        size: '0.02',
        newClientOid: 'new-bid',
      },
    }),
  );
  assert.deepEqual(Object.keys(answer).sort(), ['clientOid', 'msg', 'orderId', 'success']);
  assert.deepEqual([answer.clientOid, answer.success, answer.msg], ['new-bid', 'success', null]);
  assert.notEqual(answer.orderId, oldId);
  assert.equal((await order(oldId))?.status, 'cancelled');
  const replaced = await order(String(answer.orderId));
  assert.deepEqual(
    [replaced?.clientOid, replaced?.price, replaced?.size, replaced?.status],
    ['new-bid', '59500', '0.02', 'live'],
  );
  // Only the new order is held: 0.02 × 59500 = 1190 USDT.
  assert.deepEqual([(await usdt())?.available, (await usdt())?.frozen], ['8810', '1190']);
});

test('cancel-replace-order when nothing can change answers the error and keeps the order', async (t) => {
  const { client, bid, order } = await setup(t);
  const oldId = await bid('59000', 'kept');
  const base = { symbol: 'BTCUSDT', orderId: oldId, price: '59500', size: '0.01' };
  const cases: [Row, [string, string]][] = [
    [{ ...base, orderId: '123456789' }, ['43001', 'The order does not exist']],
    [{ ...base, symbol: 'ETHUSDT' }, ['43001', 'The order does not exist']],
    [{ ...base, price: undefined }, ['40019', 'Parameter price cannot be empty']],
    [{ ...base, orderId: undefined }, ['40019', 'Parameter orderId cannot be empty']],
    [
      { ...base, presetTakeProfitPrice: '65000' },
      [
        '40020',
        'Parameter presetTakeProfitPrice error: spot take-profit and stop-loss orders are not supported',
      ],
    ],
    [{ ...base, newClientOid: 'a b' }, ['40020', 'Parameter newClientOid error']],
  ];
  for (const [body, expected] of cases) {
    const response = await client.post(REPLACE, { body });
    assert.deepEqual([response.body?.code, response.body?.msg], expected, JSON.stringify(body));
  }
  assert.equal((await order(oldId))?.status, 'live');
});

test('cancel-replace-order when the new order is refused reports the failure after the cancel', async (t) => {
  const { client, bid, order, usdt } = await setup(t);
  const oldId = await bid('59000', 'too-big');
  // 1 BTC × 59500 = 59500 USDT: more than the 10000 held.
  const answer = data<Row>(
    await client.post(REPLACE, { body: { symbol: 'BTCUSDT', orderId: oldId, price: '59500', size: '1' } }),
  );
  assert.deepEqual(answer, {
    orderId: null,
    clientOid: null,
    success: 'failure',
    msg: 'Insufficient balance',
  });
  assert.equal((await order(oldId))?.status, 'cancelled');
  assert.deepEqual([(await usdt())?.available, (await usdt())?.frozen], ['10000', '0']);
});

test('batch-cancel-replace-order answers every item in its place', async (t) => {
  const { client, bid, order } = await setup(t);
  const first = await bid('59000', 'b1');
  const second = await bid('58000', 'b2');
  const answers = data<Row[]>(
    await client.post(BATCH, {
      body: {
        orderList: [
          { symbol: 'BTCUSDT', orderId: first, price: '59100', size: '0.01', newClientOid: 'b1-new' },
          { symbol: 'BTCUSDT', orderId: '123456789', price: '59100', size: '0.01' },
          { symbol: 'BTCUSDT', orderId: second, price: '58100' },
        ],
      },
    }),
  );
  assert.deepEqual(
    answers.map((item) => [item.clientOid, item.success, item.msg]),
    [
      ['b1-new', 'success', null],
      [null, 'failure', 'The order does not exist'],
      [null, 'failure', 'Parameter size cannot be empty'],
    ],
  );
  assert.equal((await order(first))?.status, 'cancelled');
  assert.equal((await order(second))?.status, 'live');
  const tooMany = await client.post(BATCH, {
    body: { orderList: Array.from({ length: 51 }, () => ({ symbol: 'BTCUSDT', orderId: first })) },
  });
  assert.equal(tooMany.body?.code, '40306');
});

test('cancel-replace-order when the key may only read spot answers 40014', async (t) => {
  const { client } = await setup(t, ['stor']);
  const response = await client.post(REPLACE, {
    body: { symbol: 'BTCUSDT', orderId: '1', price: '59500', size: '0.01' },
  });
  assert.equal(response.body?.code, '40014');
});
