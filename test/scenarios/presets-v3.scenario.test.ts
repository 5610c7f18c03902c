/**
 * TP/SL presets on v3 orders (unified accounts) over real HTTP: place-order and place-batch
 * carry `takeProfit` / `stopLoss` (with `tpTriggerBy`, `slOrderType`, `slLimitPrice`, …);
 * order-info shows them; when the order fills they become the position's TP/SL, listed as one
 * v3 strategy order; the operator moves the price (mark = index while the book is one-sided)
 * and one fires. Fills are against the tests' own counterparties. BTCUSDT USDT-M, taker
 * 0.06 %. Figures by hand in comments.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';
import { data, type Row } from '../support/scenario.ts';

const FUTURES = { category: 'USDT-FUTURES' };

async function setup(t: Parameters<typeof serverFor>[0]) {
  const server = await serverFor(t, { env: { BOURSE_ENFORCE_ACCOUNT_MODE: 'true' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const account = async (holdMode: 'one_way_mode' | 'hedge_mode', usdt = '10000') => {
    const { uid } = await operator.createAccount({ mode: 'unified' });
    await operator.deposit(uid, { coin: 'USDT', amount: usdt, wallet: 'unified' });
    const client = new SigningClient(server.url, await operator.createApiKey(uid));
    data(await client.post('/api/v3/account/set-hold-mode', { body: { holdMode } }));
    return client;
  };
  const order = (client: SigningClient, fields: Row) =>
    client.post('/api/v3/trade/place-order', {
      body: { ...FUTURES, symbol: 'BTCUSDT', orderType: 'limit', ...fields },
    });
  /** A fresh one-way account's resting order: the counterparty. */
  const rest = async (side: string, price: string, qty: string) =>
    data(await order(await account('one_way_mode', '1000000'), { side, price, qty }));
  const setPrice = (indexPrice: string) =>
    operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice });
  const conserved = () =>
    assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
  return { account, order, rest, setPrice, conserved };
}

async function unfilled(client: SigningClient): Promise<Row[]> {
  return data(await client.get('/api/v3/trade/unfilled-strategy-orders', { query: FUTURES }));
}

async function history(client: SigningClient): Promise<Row[]> {
  return data<{ list: Row[] }>(await client.get('/api/v3/trade/history-strategy-orders', { query: FUTURES }))
    .list;
}

async function orderInfo(client: SigningClient, query: Record<string, string>): Promise<Row> {
  return data(await client.get('/api/v3/trade/order-info', { query }));
}

async function usdt(client: SigningClient): Promise<string> {
  const assets = data<{ assets: Row[] }>(await client.get('/api/v3/account/assets'));
  return String(assets.assets.find((asset) => asset.coin === 'USDT')?.balance);
}

async function positions(client: SigningClient): Promise<Row[]> {
  return data<{ list: Row[] }>(await client.get('/api/v3/position/current-position', { query: FUTURES }))
    .list;
}

const presetFields = (row: Row) => [
  row.takeProfit,
  row.tpTriggerBy,
  row.tpOrderType,
  row.tpLimitPrice,
  row.stopLoss,
  row.slTriggerBy,
  row.slOrderType,
  row.slLimitPrice,
];

test('place-order when takeProfit and stopLoss are set lists one strategy order at the fill, and the TP closes it', async (t) => {
  const { account, order, rest, setPrice, conserved } = await setup(t);
  const client = await account('one_way_mode');
  await rest('sell', '60000', '0.1');
  const placed = data<{ orderId: string }>(
    await order(client, {
      side: 'buy',
      price: '60000',
      qty: '0.1',
      clientOid: 'v3-preset-1',
      takeProfit: '62000',
      tpTriggerBy: 'mark',
      stopLoss: '58000',
      slTriggerBy: 'mark',
      slOrderType: 'limit',
      slLimitPrice: '57900',
    }),
  );
  const info = await orderInfo(client, { orderId: placed.orderId });
  assert.equal(info.orderStatus, 'filled');
  assert.deepEqual(presetFields(info), ['62000', 'mark', 'market', '', '58000', 'mark', 'limit', '57900']);
  const [strategy] = await unfilled(client);
  assert.deepEqual(
    [
      strategy?.status,
      strategy?.type,
      strategy?.tpslMode,
      strategy?.posSide,
      strategy?.qty,
      ...presetFields(strategy ?? {}),
    ],
    [
      'pending',
      'tpsl',
      'full',
      'long',
      '0',
      '62000',
      'mark',
      'market',
      '',
      '58000',
      'mark',
      'limit',
      '57900',
    ],
  );

  await rest('buy', '61900', '1');
  await setPrice('61999.9');
  assert.equal((await unfilled(client)).length, 1, 'not touched below 62000');
  await setPrice('62000');
  assert.deepEqual(await unfilled(client), []);
  const [done] = await history(client);
  assert.deepEqual(
    [done?.orderId, done?.status, done?.triggerType, done?.takeProfit, done?.stopLoss],
    [strategy?.orderId, 'success', 'takeProfit', '62000', '58000'],
  );
  const close = await orderInfo(client, { orderId: String(done?.executeOrderId) });
  assert.deepEqual([close.avgPrice, close.tradeSide, close.reduceOnly], ['61900', 'close', 'YES']);
  assert.deepEqual(await positions(client), []);
  // 10000 − 3.6 (6000 × 0.0006) + 190 (61900 − 60000) × 0.1 − 3.714 (6190 × 0.0006).
  assert.equal(await usdt(client), '10182.686');
  conserved();
});

test('place-batch when presets are set in hedge mode: the SL closes the long, a close with presets is refused', async (t) => {
  const { account, rest, setPrice, conserved } = await setup(t);
  const client = await account('hedge_mode');
  await rest('sell', '60000', '0.1');
  const item = (fields: Row) => ({ ...FUTURES, symbol: 'BTCUSDT', orderType: 'limit', ...fields });
  const results = data<Row[]>(
    await client.post('/api/v3/trade/place-batch', {
      body: [
        item({
          side: 'buy',
          posSide: 'long',
          price: '60000',
          qty: '0.1',
          clientOid: 'v3-open',
          stopLoss: '59000',
          slTriggerBy: 'mark',
        }),
        item({
          side: 'sell',
          posSide: 'long',
          price: '61000',
          qty: '0.1',
          clientOid: 'v3-close',
          takeProfit: '62000',
        }),
      ],
    }),
  );
  assert.deepEqual(
    results.map((result) => [result.clientOid, result.code ?? '', result.msg ?? '']),
    [
      ['v3-open', '', ''],
      ['v3-close', '40020', 'Parameter takeProfit error'],
    ],
  );
  const info = await orderInfo(client, { clientOid: 'v3-open' });
  assert.deepEqual(presetFields(info), ['', '', '', '', '59000', 'mark', 'market', '']);
  const [strategy] = await unfilled(client);
  assert.deepEqual(
    [strategy?.posSide, strategy?.takeProfit, strategy?.stopLoss, strategy?.slOrderType],
    ['long', '', '59000', 'market'],
  );

  await rest('buy', '58900', '1');
  await setPrice('59000');
  const [done] = await history(client);
  assert.deepEqual([done?.status, done?.triggerType], ['success', 'stopLoss']);
  assert.equal((await orderInfo(client, { orderId: String(done?.executeOrderId) })).avgPrice, '58900');
  assert.deepEqual(await positions(client), []);
  // 10000 − 3.6 (6000 × 0.0006) − 110 (58900 − 60000) × 0.1 − 3.534 (5890 × 0.0006).
  assert.equal(await usdt(client), '9882.866');
  conserved();
});

test('modify-order when only presets change keeps the order and replaces them; spot checks presets, margin refuses them', async (t) => {
  const { account, order } = await setup(t);
  const client = await account('one_way_mode');
  const placed = data<{ orderId: string }>(
    await order(client, { side: 'buy', price: '59000', qty: '0.01', takeProfit: '61000', stopLoss: '58000' }),
  );
  data(
    await client.post('/api/v3/trade/modify-order', {
      body: { orderId: placed.orderId, takeProfit: '61500', tpTriggerBy: 'mark', stopLoss: '0' },
    }),
  );
  const info = await orderInfo(client, { orderId: placed.orderId });
  assert.deepEqual(
    [info.orderStatus, info.price, ...presetFields(info)],
    ['live', '59000', '61500', 'mark', 'market', '', '', '', '', ''],
  );
  const wrong = await client.post('/api/v3/trade/modify-order', {
    body: { orderId: placed.orderId, takeProfit: '58500' },
  });
  assert.deepEqual([wrong.body?.code, wrong.body?.msg], ['25200', 'takeProfit validation error']);
  const orphan = await order(client, { side: 'buy', price: '59000', qty: '0.01', tpLimitPrice: '61000' });
  assert.deepEqual([orphan.body?.code, orphan.body?.msg], ['40019', 'Parameter takeProfit cannot be empty']);

  const spot = await client.post('/api/v3/trade/place-order', {
    body: {
      category: 'SPOT',
      symbol: 'BTCUSDT',
      orderType: 'limit',
      side: 'buy',
      price: '60000',
      qty: '0.001',
      takeProfit: '59000',
    },
  });
  // A spot buy's TP must lie above its price (spot presets: test/scenarios/spot-presets.scenario.test.ts).
  assert.deepEqual([spot.body?.code, spot.body?.msg], ['25200', 'takeProfit validation error']);
  const margin = await client.post('/api/v3/trade/place-order', {
    body: {
      category: 'MARGIN',
      symbol: 'BTCUSDT',
      orderType: 'limit',
      side: 'buy',
      price: '60000',
      qty: '0.001',
      takeProfit: '62000',
    },
  });
  assert.deepEqual([margin.body?.code, margin.body?.msg], ['25013', 'takeProfit not support API trade']);
});
