/**
 * v3 strategy orders (unified accounts) over real HTTP, on the same plan engine as v2:
 * place, modify, cancel, unfilled and history, with prices moved by the operator. BTCUSDT
 * USDT-M, taker 0.06 %, one-way. Figures by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';
import { data, type Row } from '../support/scenario.ts';

const FUTURES = { category: 'USDT-FUTURES' };

async function setup(t: Parameters<typeof serverFor>[0]) {
  const server = await serverFor(t, { env: { BOURSE_ENFORCE_ACCOUNT_MODE: 'true' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const account = async (usdt = '10000', mode: 'unified' | 'classic' = 'unified') => {
    const { uid } = await operator.createAccount({ mode });
    await operator.deposit(uid, {
      coin: 'USDT',
      amount: usdt,
      wallet: mode === 'unified' ? 'unified' : 'usdt_futures',
    });
    return new SigningClient(server.url, await operator.createApiKey(uid));
  };
  const order = async (client: SigningClient, fields: Row) =>
    data(
      await client.post('/api/v3/trade/place-order', {
        body: { ...FUTURES, symbol: 'BTCUSDT', orderType: 'limit', ...fields },
      }),
    );
  const rest = async (side: string, price: string, qty: string) =>
    order(await account('1000000'), { side, price, qty });
  const openLong = async (client: SigningClient, qty: string) => {
    await rest('sell', '60000', qty);
    await order(client, { side: 'buy', price: '60000', qty });
  };
  const setPrice = (indexPrice: string) =>
    operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice });
  return { account, rest, openLong, setPrice };
}

async function unfilled(client: SigningClient, type?: string): Promise<Row[]> {
  return data(
    await client.get('/api/v3/trade/unfilled-strategy-orders', {
      query: { ...FUTURES, ...(type ? { type } : {}) },
    }),
  );
}

async function history(client: SigningClient): Promise<Row[]> {
  return data<{ list: Row[] }>(await client.get('/api/v3/trade/history-strategy-orders', { query: FUTURES }))
    .list;
}

async function place(client: SigningClient, fields: Row) {
  return data<{ orderId: string; clientOid: string }>(
    await client.post('/api/v3/trade/place-strategy-order', {
      body: { ...FUTURES, symbol: 'BTCUSDT', type: 'tpsl', posSide: 'long', ...fields },
    }),
  );
}

test('a full TP/SL strategy order closes the position at the take profit and ends its stop loss', async (t) => {
  const { account, rest, openLong, setPrice } = await setup(t);
  const client = await account();
  await openLong(client, '0.1');
  const placed = await place(client, {
    clientOid: 'v3-tpsl-1',
    takeProfit: '62000',
    tpTriggerBy: 'mark',
    stopLoss: '58000',
    slTriggerBy: 'mark',
    slOrderType: 'limit',
    slLimitPrice: '57900',
  });
  assert.equal(placed.clientOid, 'v3-tpsl-1');
  const [row] = await unfilled(client);
  assert.deepEqual(
    [
      row?.orderId,
      row?.status,
      row?.type,
      row?.posSide,
      row?.takeProfit,
      row?.stopLoss,
      row?.tpOrderType,
      row?.slOrderType,
      row?.slLimitPrice,
      row?.tpTriggerBy,
    ],
    [placed.orderId, 'pending', 'tpsl', 'long', '62000', '58000', 'market', 'limit', '57900', 'mark'],
  );
  await rest('buy', '61900', '1');
  await setPrice('61999.9');
  assert.equal((await unfilled(client)).length, 1);
  await setPrice('62000');
  assert.deepEqual(await unfilled(client), []);
  const [done] = await history(client);
  assert.deepEqual(
    [done?.orderId, done?.status, done?.triggerType, done?.takeProfit, done?.stopLoss],
    [placed.orderId, 'success', 'takeProfit', '62000', '58000'],
  );
  const positions = data<{ list: Row[] }>(
    await client.get('/api/v3/position/current-position', { query: FUTURES }),
  );
  assert.deepEqual(positions.list, []);
  const info = data<Row>(
    await client.get('/api/v3/trade/order-info', { query: { orderId: String(done?.executeOrderId) } }),
  );
  assert.equal(info.avgPrice, '61900');
  // 10000 − 3.6 (6000 × 0.0006) + 190 (61900 − 60000) × 0.1 − 3.714 (6190 × 0.0006).
  const assets = data<{ assets: Row[] }>(await client.get('/api/v3/account/assets'));
  assert.equal(assets.assets.find((asset) => asset.coin === 'USDT')?.balance, '10182.686');
});

test('modify-strategy-order moves the TP and removes the SL under the same orderId; cancel ends it', async (t) => {
  const { account, openLong } = await setup(t);
  const client = await account();
  await openLong(client, '0.1');
  const placed = await place(client, { takeProfit: '62000', stopLoss: '58000' });
  const modified = data<{ orderId: string }>(
    await client.post('/api/v3/trade/modify-strategy-order', {
      body: {
        orderId: placed.orderId,
        qty: '0.1',
        takeProfit: '63000',
        tpOrderType: 'limit',
        tpLimitPrice: '63100',
        stopLoss: '0',
      },
    }),
  );
  assert.equal(modified.orderId, placed.orderId);
  const [row] = await unfilled(client, 'tpsl');
  assert.deepEqual(
    [row?.orderId, row?.takeProfit, row?.tpOrderType, row?.tpLimitPrice, row?.stopLoss],
    [placed.orderId, '63000', 'limit', '63100', ''],
  );
  const wrong = await client.post('/api/v3/trade/modify-strategy-order', {
    body: { orderId: placed.orderId, qty: '0.1', takeProfit: '59000' },
  });
  assert.equal(wrong.body?.code, '25200', 'a long TP below the price now');
  assert.equal((await unfilled(client))[0]?.takeProfit, '63000', 'a refused modification changes nothing');
  const cancelled = await client.post('/api/v3/trade/cancel-strategy-order', {
    body: { orderId: placed.orderId },
  });
  assert.equal(cancelled.body?.code, '00000');
  assert.equal(cancelled.body?.data, null);
  assert.deepEqual(await unfilled(client), []);
  const [done] = await history(client);
  assert.deepEqual([done?.orderId, done?.status, done?.takeProfit], [placed.orderId, 'cancelled', '63000']);
  const again = await client.post('/api/v3/trade/cancel-strategy-order', {
    body: { orderId: placed.orderId },
  });
  assert.equal(again.body?.code, '25204');
});

test('partial TP/SL and trigger strategy orders, and the codes of bad requests', async (t) => {
  const { account, openLong, rest, setPrice } = await setup(t);
  const client = await account();
  const noPosition = await client.post('/api/v3/trade/place-strategy-order', {
    body: { ...FUTURES, symbol: 'BTCUSDT', type: 'tpsl', posSide: 'long', takeProfit: '62000' },
  });
  assert.equal(noPosition.body?.code, '25227');
  await openLong(client, '0.1');
  const empty = await client.post('/api/v3/trade/place-strategy-order', {
    body: { ...FUTURES, symbol: 'BTCUSDT', type: 'tpsl', posSide: 'long' },
  });
  assert.equal(empty.body?.code, '40019');
  const partial = await place(client, {
    tpslMode: 'partial',
    qty: '0.04',
    takeProfit: '62000',
    tpTriggerBy: 'mark',
  });
  const trigger = data<{ orderId: string }>(
    await client.post('/api/v3/trade/place-strategy-order', {
      body: {
        ...FUTURES,
        symbol: 'BTCUSDT',
        type: 'trigger',
        side: 'buy',
        qty: '0.01',
        triggerPrice: '61000',
        triggerBy: 'mark',
      },
    }),
  );
  const rows = await unfilled(client);
  assert.deepEqual(
    rows.map((row) => [row.orderId, row.type, row.qty]),
    [
      [trigger.orderId, 'trigger', '0.01'],
      [partial.orderId, 'tpsl', '0.04'],
    ],
  );
  await rest('sell', '62100', '0.01');
  await rest('buy', '61900', '1');
  await setPrice('62000');
  // Both touched; the trigger (1000 past) first buys 0.01 at 62100 (long 0.11), then the
  // partial TP (0 past) sells 0.04 at 61900.
  const position = data<{ list: Row[] }>(
    await client.get('/api/v3/position/current-position', { query: FUTURES }),
  );
  assert.equal(position.list[0]?.total, '0.07');
  assert.deepEqual(
    (await history(client)).map((row) => [row.orderId, row.status]),
    [
      [trigger.orderId, 'success'],
      [partial.orderId, 'success'],
    ],
  );
  const classic = await account('100', 'classic');
  const gated = await classic.get('/api/v3/trade/unfilled-strategy-orders', { query: FUTURES });
  assert.equal(gated.body?.code, '40084');
  const spot = await client.get('/api/v3/trade/unfilled-strategy-orders', { query: { category: 'SPOT' } });
  assert.deepEqual(data(spot), [], 'SPOT lists the TP/SL pairs of spot orders: none here');
  const margin = await client.get('/api/v3/trade/unfilled-strategy-orders', {
    query: { category: 'MARGIN' },
  });
  assert.equal(margin.body?.code, '40020');
});
