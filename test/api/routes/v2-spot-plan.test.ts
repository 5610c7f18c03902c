/**
 * v2 spot plan-order routes over real HTTP: the rows' fields, the venue's codes for bad
 * fields, unknown plans and the per-symbol limit, modify, cancel and batch cancel, paging of
 * current-plan-order and history-plan-order, and the spot trade permission.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { OperatorClient } from '../../support/operator.ts';
import { data, type Row } from '../../support/scenario.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../../support/server.ts';
import { SigningClient } from '../../support/signing.ts';

const PLACE = '/api/v2/spot/trade/place-plan-order';
const CURRENT = '/api/v2/spot/trade/current-plan-order';
const HISTORY = '/api/v2/spot/trade/history-plan-order';

/** A stop-limit buy above the 60000 index; `fields` override or add. */
const buyStop = (fields: Row = {}) => ({
  symbol: 'BTCUSDT',
  side: 'buy',
  orderType: 'limit',
  executePrice: '61100',
  triggerPrice: '61000',
  triggerType: 'fill_price',
  size: '0.01',
  ...fields,
});

async function setup(t: TestContext, permissions?: string[]) {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { uid } = await operator.createAccount();
  await operator.deposit(uid, { coin: 'USDT', amount: '10000', wallet: 'spot' });
  const client = new SigningClient(
    server.url,
    await operator.createApiKey(uid, permissions ? { permissions } : {}),
  );
  return { server, operator, uid, client };
}

const place = async (client: SigningClient, fields: Row = {}) =>
  data<{ orderId: string; clientOid: string }>(await client.post(PLACE, { body: buyStop(fields) }));

async function codeOf(client: SigningClient, path: string, body: unknown): Promise<[string, string]> {
  const response = await client.post(path, { body });
  return [String(response.body?.code), String(response.body?.msg)];
}

test('current-plan-order when a plan waits lists it with the venue fields', async (t) => {
  const { client } = await setup(t);
  const placed = await place(client, { clientOid: 'my-stop', force: 'post_only' });
  assert.equal(placed.clientOid, 'my-stop');
  const page = data<{ nextFlag: boolean; idLessThan: string; orderList: Row[] }>(
    await client.get(CURRENT, { query: { symbol: 'BTCUSDT' } }),
  );
  const [row] = page.orderList;
  assert.ok(row);
  const { cTime, uTime, ...fields } = row;
  assert.match(String(cTime), /^\d{13}$/);
  assert.equal(uTime, cTime);
  assert.deepEqual(fields, {
    orderId: placed.orderId,
    clientOid: 'my-stop',
    symbol: 'BTCUSDT',
    size: '0.01',
    executePrice: '61100',
    triggerPrice: '61000',
    status: 'live',
    orderType: 'limit',
    side: 'buy',
    planType: 'amount',
    triggerType: 'fill_price',
    enterPointSource: 'API',
  });
  assert.deepEqual([page.nextFlag, page.idLessThan], [false, placed.orderId]);
});

test('place-plan-order when a field is missing or wrong answers the venue code and places nothing', async (t) => {
  const { client } = await setup(t);
  const { triggerType: _omitted, ...noTriggerType } = buyStop();
  const cases: [unknown, [string, string]][] = [
    [noTriggerType, ['40019', 'Parameter triggerType cannot be empty']],
    [buyStop({ executePrice: undefined }), ['40019', 'Parameter executePrice cannot be empty']],
    [buyStop({ planType: 'units' }), ['40020', 'Parameter planType error']],
    [buyStop({ triggerType: 'index_price' }), ['40020', 'Parameter triggerType error']],
    [buyStop({ force: 'day' }), ['40020', 'Parameter force error']],
    [buyStop({ symbol: 'DOGEUSDT' }), ['40034', 'Parameter DOGEUSDT does not exist']],
    [buyStop({ triggerPrice: '61000.001' }), ['41103', 'param triggerPrice scale error error']],
    [
      buyStop({ size: '0.0000001' }),
      ['40808', 'Parameter verification exception size checkBDScale error value=0.0000001 checkScale=6'],
    ],
    [buyStop({ size: '0.00001' }), ['45110', 'less than the minimum amount 1 USDT']],
    [
      buyStop({ planType: 'total', size: '100.123456789' }),
      ['40808', 'Parameter verification exception size checkBDScale error value=100.123456789 checkScale=8'],
    ],
    [buyStop({ clientOid: 'has space' }), ['40020', 'Parameter clientOid error']],
  ];
  for (const [body, expected] of cases)
    assert.deepEqual(await codeOf(client, PLACE, body), expected, JSON.stringify(body));
  const page = data<{ orderList: Row[] }>(await client.get(CURRENT, { query: {} }));
  assert.deepEqual(page.orderList, []);
});

test('place-plan-order when the clientOid is live or the symbol holds 100 plans answers 43118 / 43071', async (t) => {
  const { client } = await setup(t);
  await place(client, { clientOid: 'once' });
  assert.deepEqual(await codeOf(client, PLACE, buyStop({ clientOid: 'once' })), [
    '43118',
    'clientOrderId duplicate',
  ]);
  for (let count = 1; count < 100; count += 1) await place(client);
  assert.deepEqual(await codeOf(client, PLACE, buyStop()), [
    '43071',
    'Trigger order limit for a single trading pair is 100',
  ]);
  // Another symbol has its own count.
  await place(client, { symbol: 'ETHUSDT', executePrice: '3100', triggerPrice: '3050', size: '0.1' });
});

test('modify-plan-order when the plan waits changes its trigger, type and size', async (t) => {
  const { client } = await setup(t);
  const placed = await place(client, { clientOid: 'to-modify' });
  const modified = data<{ orderId: string; clientOid: string }>(
    await client.post('/api/v2/spot/trade/modify-plan-order', {
      body: { clientOid: 'to-modify', triggerPrice: '62000', orderType: 'market', size: '0.02' },
    }),
  );
  assert.deepEqual(modified, { orderId: placed.orderId, clientOid: 'to-modify' });
  const [row] = data<{ orderList: Row[] }>(await client.get(CURRENT, { query: {} })).orderList;
  assert.deepEqual(
    [row?.triggerPrice, row?.orderType, row?.executePrice, row?.size],
    ['62000', 'market', '', '0.02'],
  );
  assert.deepEqual(
    await codeOf(client, '/api/v2/spot/trade/modify-plan-order', {
      orderId: placed.orderId,
      triggerPrice: '62000',
      orderType: 'limit',
      size: '0.02',
    }),
    ['40019', 'Parameter executePrice cannot be empty'],
  );
  assert.deepEqual(
    await codeOf(client, '/api/v2/spot/trade/modify-plan-order', {
      orderId: '123456789',
      triggerPrice: '62000',
      orderType: 'market',
      size: '0.02',
    }),
    ['43025', 'Plan order does not exist'],
  );
});

test('cancel-plan-order and batch-cancel-plan-order when plans wait end them as cancelled', async (t) => {
  const { client } = await setup(t);
  const first = await place(client, { clientOid: 'first' });
  const eth = await place(client, {
    symbol: 'ETHUSDT',
    executePrice: '3100',
    triggerPrice: '3050',
    size: '0.1',
  });
  const third = await place(client);
  assert.deepEqual(
    data(await client.post('/api/v2/spot/trade/cancel-plan-order', { body: { clientOid: 'first' } })),
    { result: 'success' },
  );
  assert.deepEqual(await codeOf(client, '/api/v2/spot/trade/cancel-plan-order', { orderId: first.orderId }), [
    '43025',
    'Plan order does not exist',
  ]);
  const batch = data<{ successList: Row[]; failureList: Row[] }>(
    await client.post('/api/v2/spot/trade/batch-cancel-plan-order', { body: { symbolList: ['btcusdt'] } }),
  );
  assert.deepEqual(batch.successList, [{ orderId: third.orderId, clientOid: third.orderId }]);
  assert.deepEqual(batch.failureList, []);
  const rest = data<{ successList: Row[] }>(
    await client.post('/api/v2/spot/trade/batch-cancel-plan-order', { body: {} }),
  );
  assert.deepEqual(rest.successList, [{ orderId: eth.orderId, clientOid: eth.orderId }]);
  // Newest first by creation.
  const ended = data<{ orderList: Row[] }>(await client.get(HISTORY, { query: {} })).orderList;
  assert.deepEqual(
    ended.map((row) => [row.orderId, row.status]),
    [
      [third.orderId, 'cancelled'],
      [eth.orderId, 'cancelled'],
      [first.orderId, 'cancelled'],
    ],
  );
});

test('current-plan-order and history-plan-order when rows exceed the limit page with idLessThan', async (t) => {
  const { client } = await setup(t);
  const ids: string[] = [];
  for (let count = 0; count < 3; count += 1) ids.push((await place(client)).orderId);
  const [oldest, middle, newest] = ids;
  const first = data<{ nextFlag: boolean; idLessThan: string; orderList: Row[] }>(
    await client.get(CURRENT, { query: { limit: '2' } }),
  );
  assert.deepEqual(
    first.orderList.map((row) => row.orderId),
    [newest, middle],
  );
  assert.deepEqual([first.nextFlag, first.idLessThan], [true, middle]);
  const second = data<{ nextFlag: boolean; orderList: Row[] }>(
    await client.get(CURRENT, { query: { limit: '2', idLessThan: first.idLessThan } }),
  );
  assert.deepEqual([second.orderList.map((row) => row.orderId), second.nextFlag], [[oldest], false]);

  await client.post('/api/v2/spot/trade/batch-cancel-plan-order', { body: {} });
  const ended = data<{ nextFlag: boolean; idLessThan: string; orderList: Row[] }>(
    await client.get(HISTORY, { query: { symbol: 'BTCUSDT', limit: '2' } }),
  );
  assert.deepEqual([ended.orderList.map((row) => row.orderId), ended.nextFlag], [[newest, middle], true]);
  const older = data<{ nextFlag: boolean; orderList: Row[] }>(
    await client.get(HISTORY, { query: { limit: '2', idLessThan: ended.idLessThan } }),
  );
  assert.deepEqual([older.orderList.map((row) => row.orderId), older.nextFlag], [[oldest], false]);
  const bad = await client.get(HISTORY, { query: { idLessThan: 'abc' } });
  assert.deepEqual([bad.body?.code, bad.body?.msg], ['40020', 'Parameter idLessThan error']);
});

test('plan-sub-order when the plan is unknown, waiting or unnamed answers 43025, [] and 40019', async (t) => {
  const { client } = await setup(t);
  const placed = await place(client);
  const sub = (planOrderId?: string) =>
    client.get('/api/v2/spot/trade/plan-sub-order', { query: planOrderId ? { planOrderId } : {} });
  assert.deepEqual(data(await sub(placed.orderId)), []);
  assert.equal((await sub('123456789')).body?.code, '43025');
  assert.equal((await sub()).body?.code, '40019');
});

test('place-plan-order when the key may only read spot answers 40014; reads still work', async (t) => {
  const { client } = await setup(t, ['stor']);
  assert.deepEqual(await codeOf(client, PLACE, buyStop()), [
    '40014',
    'Incorrect permissions, need read and write permissions',
  ]);
  assert.equal((await codeOf(client, '/api/v2/spot/trade/batch-cancel-plan-order', {}))[0], '40014');
  assert.equal((await client.get(CURRENT, { query: {} })).body?.code, '00000');
});
