/**
 * close-positions over real HTTP: v2 mix in one-way mode (holdSide ignored) and hedge mode
 * (holdSide picks a side), v3 on a unified account (posSide), nothing to close (22002 /
 * 25227), and the trade permission. BTCUSDT USDT-M: taker 0.06 %, the counterparties rest
 * first so the trader is the taker; figures by hand in the comments.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { OperatorClient } from '../../support/operator.ts';
import { data, mixOrder, type Row } from '../../support/scenario.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../../support/server.ts';
import { SigningClient } from '../../support/signing.ts';

const CLOSE = '/api/v2/mix/order/close-positions';
const PRODUCT = { productType: 'USDT-FUTURES' };

async function setup(t: TestContext) {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const trader = async (mode: 'one_way_mode' | 'hedge_mode', permissions?: string[]) => {
    const { uid } = await operator.createAccount();
    await operator.deposit(uid, { coin: 'USDT', amount: '10000', wallet: 'usdt_futures' });
    const key = await operator.createApiKey(uid, permissions ? { permissions } : {});
    const client = new SigningClient(server.url, key);
    const full = new SigningClient(server.url, await operator.createApiKey(uid));
    data(await full.post('/api/v2/mix/account/set-position-mode', { body: { ...PRODUCT, posMode: mode } }));
    return { client, full };
  };
  /** A fresh one-way account's resting order: the other side of the trader's trades. */
  const rest = async (side: string, price: string, size: string) => {
    const { full } = await trader('one_way_mode');
    data(await full.post('/api/v2/mix/order/place-order', { body: mixOrder({ side, price, size }) }));
  };
  return { server, operator, trader, rest };
}

const positions = async (client: SigningClient) =>
  data<Row[]>(await client.get('/api/v2/mix/position/all-position', { query: PRODUCT })).map((row) => [
    row.holdSide,
    row.total,
  ]);

async function available(client: SigningClient): Promise<string> {
  const [row] = data<Row[]>(await client.get('/api/v2/mix/account/accounts', { query: PRODUCT }));
  return String(row?.available);
}

test('close-positions when one-way closes the position at the bid and ignores holdSide', async (t) => {
  const { trader, rest } = await setup(t);
  const { client } = await trader('one_way_mode');
  await rest('sell', '60000', '0.1');
  data(
    await client.post('/api/v2/mix/order/place-order', {
      body: mixOrder({ side: 'buy', price: '60000', size: '0.1' }),
    }),
  );
  await rest('buy', '59900', '0.1');
  const answer = data<{ successList: Row[]; failureList: Row[] }>(
    await client.post(CLOSE, { body: { ...PRODUCT, symbol: 'BTCUSDT', holdSide: 'short' } }),
  );
  assert.equal(answer.successList.length, 1);
  assert.equal(answer.successList[0]?.symbol, 'BTCUSDT');
  assert.deepEqual(answer.failureList, []);
  const order = data<Row>(
    await client.get('/api/v2/mix/order/detail', {
      query: { ...PRODUCT, symbol: 'BTCUSDT', orderId: String(answer.successList[0]?.orderId) },
    }),
  );
  assert.deepEqual(
    [order.orderType, order.side, order.state, order.priceAvg, order.reduceOnly],
    ['market', 'sell', 'filled', '59900', 'YES'],
  );
  assert.deepEqual(await positions(client), []);
  // 10000 − 3.6 (open fee 6000 × 0.0006) − 10 ((59900 − 60000) × 0.1) − 3.594 (5990 × 0.0006).
  assert.equal(await available(client), '9982.806');
  const again = await client.post(CLOSE, { body: PRODUCT });
  assert.deepEqual([again.body?.code, again.body?.msg], ['22002', 'No position to close']);
});

test('close-positions when hedged closes the side holdSide names, else both', async (t) => {
  const { trader, rest } = await setup(t);
  const { client } = await trader('hedge_mode');
  const open = (side: string, price: string, size: string) =>
    client.post('/api/v2/mix/order/place-order', {
      body: mixOrder({ side, tradeSide: 'open', price, size }),
    });
  await rest('sell', '60000', '0.1');
  data(await open('buy', '60000', '0.1'));
  await rest('buy', '60000', '0.05');
  data(await open('sell', '60000', '0.05'));
  assert.deepEqual(await positions(client), [
    ['long', '0.1'],
    ['short', '0.05'],
  ]);
  await rest('sell', '60100', '0.05');
  const shortOnly = data<{ successList: Row[] }>(
    await client.post(CLOSE, { body: { ...PRODUCT, holdSide: 'short' } }),
  );
  assert.equal(shortOnly.successList.length, 1);
  assert.deepEqual(await positions(client), [['long', '0.1']]);
  await rest('buy', '59900', '0.1');
  const rest2 = data<{ successList: Row[] }>(
    await client.post(CLOSE, { body: { ...PRODUCT, symbol: 'btcusdt' } }),
  );
  assert.equal(rest2.successList.length, 1);
  assert.deepEqual(await positions(client), []);
  const none = await client.post(CLOSE, { body: { ...PRODUCT, holdSide: 'long' } });
  assert.equal(none.body?.code, '22002');
});

test('close-positions when the book is empty places the market close and keeps the position', async (t) => {
  const { trader, rest } = await setup(t);
  const { client } = await trader('one_way_mode');
  await rest('sell', '60000', '0.1');
  data(
    await client.post('/api/v2/mix/order/place-order', {
      body: mixOrder({ side: 'buy', price: '60000', size: '0.1' }),
    }),
  );
  const answer = data<{ successList: Row[] }>(await client.post(CLOSE, { body: PRODUCT }));
  const order = data<Row>(
    await client.get('/api/v2/mix/order/detail', {
      query: { ...PRODUCT, symbol: 'BTCUSDT', orderId: String(answer.successList[0]?.orderId) },
    }),
  );
  assert.deepEqual([order.state, order.baseVolume], ['canceled', '0']);
  assert.deepEqual(await positions(client), [['long', '0.1']]);
});

test('close-positions when the key may only read futures answers 40014; a bad holdSide 40020', async (t) => {
  const { trader } = await setup(t);
  const { client } = await trader('one_way_mode', ['coor']);
  assert.equal((await client.post(CLOSE, { body: PRODUCT })).body?.code, '40014');
  const { client: full } = await trader('hedge_mode');
  const bad = await full.post(CLOSE, { body: { ...PRODUCT, holdSide: 'up' } });
  assert.deepEqual([bad.body?.code, bad.body?.msg], ['40020', 'Parameter holdSide error']);
  assert.equal((await full.post(CLOSE, { body: {} })).body?.code, '40019');
});

test('v3 close-positions when unified closes the posSide asked, then answers 25227', async (t) => {
  const { server, operator } = await setup(t);
  const unified = async (permissions?: string[]) => {
    const { uid } = await operator.createAccount({ mode: 'unified' });
    await operator.deposit(uid, { coin: 'USDT', amount: '100000', wallet: 'unified' });
    return new SigningClient(
      server.url,
      await operator.createApiKey(uid, permissions ? { permissions } : {}),
    );
  };
  const item = {
    category: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    orderType: 'limit',
    qty: '0.1',
    price: '60000',
  };
  const maker = await unified();
  const trader = await unified();
  data(await maker.post('/api/v3/trade/place-order', { body: { ...item, side: 'sell' } }));
  data(await trader.post('/api/v3/trade/place-order', { body: { ...item, side: 'buy' } }));
  data(await maker.post('/api/v3/trade/place-order', { body: { ...item, side: 'buy', price: '59900' } }));
  const wrongSide = await trader.post('/api/v3/trade/close-positions', {
    body: { category: 'USDT-FUTURES', posSide: 'short' },
  });
  assert.deepEqual([wrongSide.body?.code, wrongSide.body?.msg], ['25227', 'No position available to close']);
  const closed = data<{ list: Row[] }>(
    await trader.post('/api/v3/trade/close-positions', {
      body: { category: 'usdt-futures', posSide: 'long' },
    }),
  );
  assert.equal(closed.list.length, 1);
  assert.deepEqual(Object.keys(closed.list[0] ?? {}).sort(), ['clientOid', 'orderId']);
  const open = data<{ list: Row[] }>(
    await trader.get('/api/v3/position/current-position', { query: { category: 'USDT-FUTURES' } }),
  );
  assert.deepEqual(open.list, []);
  const spot = await trader.post('/api/v3/trade/close-positions', { body: { category: 'SPOT' } });
  assert.equal(spot.body?.code, '40020');
  const reader = await unified(['coor']);
  assert.equal(
    (await reader.post('/api/v3/trade/close-positions', { body: { category: 'USDT-FUTURES' } })).body?.code,
    '25620',
  );
});
