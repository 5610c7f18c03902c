/**
 * TP/SL presets of spot orders over real HTTP (v2 spot and v3 SPOT): once the order is done
 * they become a TP/SL pair of spot plans, sized on the base coin the order received net of
 * fees, listed among the spot plans; the first that fires sells and cancels the other.
 * BTCUSDT spot: maker and taker fee 0.1 %, a buyer pays it in BTC, a seller in USDT.
 * Figures computed by hand in the comments.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { OperatorClient } from '../support/operator.ts';
import { data, type Row } from '../support/scenario.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';

async function setup(t: TestContext) {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const account = async (funds: [string, string][], mode: 'classic' | 'unified' = 'classic') => {
    const { uid } = await operator.createAccount({ mode });
    const wallet = mode === 'unified' ? 'unified' : 'spot';
    for (const [coin, amount] of funds) await operator.deposit(uid, { coin, amount, wallet });
    return new SigningClient(server.url, await operator.createApiKey(uid));
  };
  const order = (client: SigningClient, fields: Row) =>
    client.post('/api/v2/spot/trade/place-order', {
      body: { symbol: 'BTCUSDT', orderType: 'limit', force: 'gtc', ...fields },
    });
  const conserved = () =>
    assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
  return { account, order, conserved };
}

async function plans(client: SigningClient, path: string): Promise<Row[]> {
  return data<{ orderList: Row[] }>(
    await client.get(`/api/v2/spot/trade/${path}`, { query: { symbol: 'BTCUSDT' } }),
  ).orderList;
}

async function available(client: SigningClient, coin: string): Promise<string> {
  const [row] = data<Row[]>(await client.get('/api/v2/spot/account/assets', { query: { coin } }));
  return String(row?.available ?? '0');
}

const pick = (rows: Row[], ...fields: string[]) => rows.map((row) => fields.map((field) => row[field]));

test('a filled buy with presets gets a TP/SL pair on the BTC it received; the TP sells it and cancels the SL', async (t) => {
  const { account, order, conserved } = await setup(t);
  const maker = await account([['BTC', '1']]);
  const other = await account([['USDT', '100000']]);
  const trader = await account([['USDT', '10000']]);
  await order(maker, { side: 'sell', price: '60000', size: '0.01' });
  const placed = data<{ orderId: string }>(
    await order(trader, {
      side: 'buy',
      price: '60000',
      size: '0.01',
      presetTakeProfitPrice: '60500',
      presetStopLossPrice: '59500',
      executeStopLossPrice: '59400',
    }),
  );
  const [detail] = data<Row[]>(
    await trader.get('/api/v2/spot/trade/orderInfo', { query: { orderId: placed.orderId } }),
  );
  assert.deepEqual(
    [
      detail?.status,
      detail?.presetTakeProfitPrice,
      detail?.executeTakeProfitPrice,
      detail?.presetStopLossPrice,
      detail?.executeStopLossPrice,
    ],
    ['filled', '60500', '', '59500', '59400'],
  );
  // Received 0.01 BTC less the 0.1 % fee in BTC: 0.00999, which the pair sells.
  assert.equal(await available(trader, 'BTC'), '0.00999');
  const pair = await plans(trader, 'current-plan-order');
  assert.deepEqual(pick(pair, 'side', 'size', 'triggerPrice', 'orderType', 'executePrice', 'status'), [
    ['sell', '0.00999', '59500', 'limit', '59400', 'live'],
    ['sell', '0.00999', '60500', 'market', '', 'live'],
  ]);
  // A bid to sell into, then a trade at 60500 (the last price reaches the TP).
  await order(other, { side: 'buy', price: '60400', size: '0.02' });
  await order(maker, { side: 'sell', price: '60500', size: '0.001' });
  await order(other, { side: 'buy', price: '60500', size: '0.001' });
  assert.deepEqual(await plans(trader, 'current-plan-order'), []);
  const ended = await plans(trader, 'history-plan-order');
  assert.deepEqual(pick(ended, 'triggerPrice', 'status').sort(), [
    ['59500', 'cancelled'],
    ['60500', 'executed'],
  ]);
  // 10000 − 600 (0.01 × 60000) + 603.396 (0.00999 × 60400) − 0.603396 fee = 10002.792604.
  assert.equal(await available(trader, 'USDT'), '10002.792604');
  assert.equal(await available(trader, 'BTC'), '0');
  conserved();
});

test('a part-filled buy cancelled gets its pair on the part; an unfilled one leaves nothing; wrong sides are refused', async (t) => {
  const { account, order, conserved } = await setup(t);
  const maker = await account([['BTC', '1']]);
  const trader = await account([['USDT', '10000']]);
  await order(maker, { side: 'sell', price: '60000', size: '0.004' });
  const placed = data<{ orderId: string }>(
    await order(trader, { side: 'buy', price: '60000', size: '0.01', presetStopLossPrice: '59000' }),
  );
  assert.deepEqual(await plans(trader, 'current-plan-order'), [], 'still open: nothing yet');
  await trader.post('/api/v2/spot/trade/cancel-order', {
    body: { symbol: 'BTCUSDT', orderId: placed.orderId },
  });
  // 0.004 filled, less 0.000004 fee: 0.003996.
  assert.deepEqual(pick(await plans(trader, 'current-plan-order'), 'side', 'size', 'triggerPrice'), [
    ['sell', '0.003996', '59000'],
  ]);
  const unfilled = data<{ orderId: string }>(
    await order(trader, { side: 'buy', price: '50000', size: '0.001', presetTakeProfitPrice: '70000' }),
  );
  await trader.post('/api/v2/spot/trade/cancel-order', {
    body: { symbol: 'BTCUSDT', orderId: unfilled.orderId },
  });
  assert.equal((await plans(trader, 'current-plan-order')).length, 1, 'the unfilled order left nothing');
  const refusals: [Row, string][] = [
    [{ side: 'buy', price: '60000', size: '0.001', presetTakeProfitPrice: '59000' }, '40895'],
    [{ side: 'sell', price: '60000', size: '0.001', presetStopLossPrice: '59000' }, '40895'],
    [{ side: 'buy', price: '60000', size: '0.001', executeTakeProfitPrice: '61000' }, '40019'],
    [{ side: 'buy', price: '60000', size: '0.001', tpslType: 'tpsl', triggerPrice: '61000' }, '40020'],
  ];
  for (const [fields, code] of refusals) {
    const answer = await order(trader, fields);
    assert.equal(answer.body?.code, code, answer.text);
  }
  assert.equal((await plans(trader, 'current-plan-order')).length, 1);
  conserved();
});

test('v3 SPOT: a market buy with takeProfit and stopLoss; the stop loss sells at the bid', async (t) => {
  const { account, order, conserved } = await setup(t);
  const maker = await account([['BTC', '1']]);
  const other = await account([['USDT', '100000']]);
  const trader = await account([['USDT', '10000']], 'unified');
  await order(maker, { side: 'sell', price: '60000', size: '0.01' });
  const placed = data<{ orderId: string }>(
    await trader.post('/api/v3/trade/place-order', {
      body: {
        category: 'SPOT',
        symbol: 'BTCUSDT',
        side: 'buy',
        orderType: 'market',
        qty: '300',
        takeProfit: '65000',
        stopLoss: '59500',
      },
    }),
  );
  const info = data<Row>(
    await trader.get('/api/v3/trade/order-info', { query: { orderId: placed.orderId } }),
  );
  assert.deepEqual(
    [info.orderStatus, info.cumExecQty, info.takeProfit, info.stopLoss, info.tpOrderType, info.slTriggerBy],
    ['filled', '0.005', '65000', '59500', 'market', 'market'],
  );
  // 300 USDT buys 0.005 BTC at 60000; less 0.000005 fee: 0.004995.
  assert.deepEqual(pick(await plans(trader, 'current-plan-order'), 'side', 'size', 'triggerPrice'), [
    ['sell', '0.004995', '59500'],
    ['sell', '0.004995', '65000'],
  ]);
  // The unified account sees the pair as one strategy order of category SPOT.
  const strategies = async (path: string) => {
    const answer = data<Row[] | { list: Row[] }>(
      await trader.get(`/api/v3/trade/${path}`, { query: { category: 'SPOT' } }),
    );
    return Array.isArray(answer) ? answer : answer.list;
  };
  assert.deepEqual(
    pick(
      await strategies('unfilled-strategy-orders'),
      'type',
      'qty',
      'posSide',
      'takeProfit',
      'stopLoss',
      'status',
    ),
    [['tpsl', '0.004995', '', '65000', '59500', 'pending']],
  );
  const pairId = String((await strategies('unfilled-strategy-orders'))[0]?.orderId);
  const modified = await trader.post('/api/v3/trade/modify-strategy-order', {
    body: { orderId: pairId, qty: '0.004995', takeProfit: '66000' },
  });
  assert.deepEqual(
    [modified.body?.code, modified.body?.msg],
    ['40020', 'Parameter orderId error: a spot TP/SL pair is not modified; cancel it'],
  );
  // Bids to sell into; a trade at 59500 reaches the SL, which sells at the 59400 bid.
  await order(other, { side: 'buy', price: '59400', size: '0.01' });
  await order(other, { side: 'buy', price: '59500', size: '0.001' });
  await order(maker, { side: 'sell', price: '59500', size: '0.001' });
  assert.deepEqual(await plans(trader, 'current-plan-order'), []);
  assert.deepEqual(pick(await strategies('history-strategy-orders'), 'status', 'triggerType'), [
    ['success', 'stopLoss'],
  ]);
  // 10000 − 300 + 296.703 (0.004995 × 59400) − 0.296703 fee = 9996.406297.
  const assets = data<{ assets: Row[] }>(await trader.get('/api/v3/account/assets'));
  assert.equal(assets.assets.find((asset) => asset.coin === 'USDT')?.balance, '9996.406297');
  conserved();
});
