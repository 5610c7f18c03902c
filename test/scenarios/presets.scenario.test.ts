/**
 * TP/SL presets on v2 mix orders over real HTTP: place-order and batch-place-order carry
 * `presetStopSurplusPrice` / `presetStopLossPrice`; the order's detail shows them; when it
 * fills they become the position's pos_profit / pos_loss plans; the operator moves the price
 * (mark = index while the book is one-sided) and one fires, closing the position, the other
 * ends. Fills are against the tests' own counterparties. BTCUSDT USDT-M, taker 0.06 %,
 * crossed, leverage 20. Figures by hand in comments.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';
import { data, mixOrder, type Row } from '../support/scenario.ts';

const PRODUCT = { productType: 'USDT-FUTURES' };
/** Presets that follow the mark price, which the operator moves. */
const MARK = { presetStopSurplusType: 'mark_price', presetStopLossType: 'mark_price' };

async function setup(t: Parameters<typeof serverFor>[0]) {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const trader = async (posMode: 'one_way_mode' | 'hedge_mode', usdt = '10000') => {
    const { uid } = await operator.createAccount();
    await operator.deposit(uid, { coin: 'USDT', amount: usdt, wallet: 'usdt_futures' });
    const client = new SigningClient(server.url, await operator.createApiKey(uid));
    data(await client.post('/api/v2/mix/account/set-position-mode', { body: { ...PRODUCT, posMode } }));
    return client;
  };
  const order = async (client: SigningClient, fields: Row) =>
    client.post('/api/v2/mix/order/place-order', { body: mixOrder(fields) });
  /** A fresh one-way account's resting order: the counterparty. */
  const rest = async (side: string, price: string, size: string) =>
    data(await order(await trader('one_way_mode', '1000000'), { side, price, size }));
  const setPrice = (indexPrice: string) =>
    operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice });
  const conserved = () =>
    assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
  return { trader, order, rest, setPrice, conserved };
}

async function plans(client: SigningClient, which: 'pending' | 'history'): Promise<Row[]> {
  const path = which === 'pending' ? 'orders-plan-pending' : 'orders-plan-history';
  return data<{ entrustedList: Row[] }>(
    await client.get(`/api/v2/mix/order/${path}`, { query: { ...PRODUCT, planType: 'profit_loss' } }),
  ).entrustedList;
}

async function detail(client: SigningClient, query: Row): Promise<Row> {
  return data(
    await client.get('/api/v2/mix/order/detail', { query: { ...PRODUCT, symbol: 'BTCUSDT', ...query } }),
  );
}

async function available(client: SigningClient): Promise<string> {
  const [row] = data<Row[]>(await client.get('/api/v2/mix/account/accounts', { query: PRODUCT }));
  return String(row?.available);
}

async function positions(client: SigningClient): Promise<Row[]> {
  return data(
    await client.get('/api/v2/mix/position/all-position', { query: { ...PRODUCT, marginCoin: 'USDT' } }),
  );
}

const planRow = (plan: Row) => [plan.planType, plan.triggerPrice, plan.size, plan.side, plan.tradeSide];

test('place-order when presets are set makes them the position TP/SL at the fill, and the TP closes the long', async (t) => {
  const { trader, order, rest, setPrice, conserved } = await setup(t);
  const long = await trader('one_way_mode');
  await rest('sell', '60000', '0.1');
  const placed = data<{ orderId: string }>(
    await order(long, {
      side: 'buy',
      price: '60000',
      size: '0.1',
      clientOid: 'preset-1',
      presetStopSurplusPrice: '62000',
      presetStopLossPrice: '59000',
      ...MARK,
    }),
  );
  const filled = await detail(long, { orderId: placed.orderId });
  assert.deepEqual(
    [filled.state, filled.presetStopSurplusPrice, filled.presetStopLossPrice, filled.presetStopSurplusType],
    ['filled', '62000', '59000', 'mark_price'],
  );
  assert.deepEqual((await plans(long, 'pending')).map(planRow).sort(), [
    ['pos_loss', '59000', '0', 'sell', 'reduce_sell_single'],
    ['pos_profit', '62000', '0', 'sell', 'reduce_sell_single'],
  ]);
  const [position] = await positions(long);
  assert.deepEqual([position?.total, position?.takeProfit, position?.stopLoss], ['0.1', '62000', '59000']);

  // An order that has not filled shows its presets and has made no plan; cancelled, it makes none.
  const waiting = data<{ orderId: string }>(
    await order(long, { side: 'buy', price: '59500', size: '0.05', presetStopLossPrice: '58000' }),
  );
  const [open] = data<{ entrustedList: Row[] }>(
    await long.get('/api/v2/mix/order/orders-pending', { query: PRODUCT }),
  ).entrustedList;
  assert.deepEqual([open?.orderId, open?.presetStopLossPrice], [waiting.orderId, '58000']);
  assert.equal((await plans(long, 'pending')).length, 2);
  data(
    await long.post('/api/v2/mix/order/cancel-order', {
      body: { ...PRODUCT, symbol: 'BTCUSDT', ...waiting },
    }),
  );
  assert.equal((await plans(long, 'pending')).length, 2);

  await rest('buy', '61900', '1');
  await setPrice('61999.9');
  assert.equal((await plans(long, 'pending')).length, 2, 'not touched below 62000');
  await setPrice('62000');
  assert.deepEqual(await plans(long, 'pending'), []);
  const ended = await plans(long, 'history');
  assert.deepEqual(ended.map((plan) => [plan.planType, plan.planStatus]).sort(), [
    ['pos_loss', 'cancelled'],
    ['pos_profit', 'executed'],
  ]);
  const takeProfit = ended.find((plan) => plan.planType === 'pos_profit');
  assert.equal(takeProfit?.priceAvg, '61900', 'a market close fills at the bid');
  const close = await detail(long, { orderId: String(takeProfit?.executeOrderId) });
  assert.deepEqual([close.orderSource, close.totalProfits], ['pos_profit_market', '190']);
  assert.deepEqual(await positions(long), []);
  // 10000 − 3.6 (6000 × 0.0006) + 190 (61900 − 60000) × 0.1 − 3.714 (6190 × 0.0006).
  assert.equal(await available(long), '10182.686');
  conserved();
});

test('batch-place-order when presets are set in hedge mode: the SL closes the long, a close with presets is refused', async (t) => {
  const { trader, rest, setPrice, conserved } = await setup(t);
  const hedger = await trader('hedge_mode');
  await rest('sell', '60000', '0.1');
  const lists = data<{ successList: Row[]; failureList: Row[] }>(
    await hedger.post('/api/v2/mix/order/batch-place-order', {
      body: {
        symbol: 'BTCUSDT',
        ...PRODUCT,
        marginMode: 'crossed',
        marginCoin: 'USDT',
        orderList: [
          {
            side: 'buy',
            tradeSide: 'open',
            orderType: 'limit',
            force: 'gtc',
            price: '60000',
            size: '0.1',
            clientOid: 'batch-open',
            presetStopSurplusPrice: '63000',
            presetStopLossPrice: '59000',
            ...MARK,
          },
          {
            side: 'buy',
            tradeSide: 'close',
            orderType: 'limit',
            force: 'gtc',
            price: '61000',
            size: '0.1',
            clientOid: 'batch-close',
            presetStopLossPrice: '59000',
          },
        ],
      },
    }),
  );
  assert.deepEqual(
    lists.successList.map((item) => item.clientOid),
    ['batch-open'],
  );
  assert.deepEqual(
    lists.failureList.map((item) => [item.clientOid, item.errorCode, item.errorMsg]),
    [['batch-close', '40020', 'Parameter presetStopLossPrice error']],
  );
  const opened = await detail(hedger, { clientOid: 'batch-open' });
  assert.deepEqual(
    [opened.state, opened.presetStopSurplusPrice, opened.presetStopLossPrice],
    ['filled', '63000', '59000'],
  );
  // v2 hedge rows name the position direction: a close of the long is side buy, tradeSide close.
  assert.deepEqual((await plans(hedger, 'pending')).map(planRow).sort(), [
    ['pos_loss', '59000', '0', 'buy', 'close'],
    ['pos_profit', '63000', '0', 'buy', 'close'],
  ]);

  await rest('buy', '58900', '1');
  await setPrice('59000');
  const ended = await plans(hedger, 'history');
  assert.deepEqual(ended.map((plan) => [plan.planType, plan.planStatus, plan.priceAvg]).sort(), [
    ['pos_loss', 'executed', '58900'],
    ['pos_profit', 'cancelled', ''],
  ]);
  assert.deepEqual(await positions(hedger), []);
  // 10000 − 3.6 (6000 × 0.0006) − 110 (58900 − 60000) × 0.1 − 3.534 (5890 × 0.0006).
  assert.equal(await available(hedger), '9882.866');
  conserved();
});

test('modify-order when a preset changes moves it onto the replacement, and 0 removes one', async (t) => {
  const { trader, order } = await setup(t);
  const client = await trader('one_way_mode');
  const placed = data<{ orderId: string }>(
    await order(client, {
      side: 'buy',
      price: '59000',
      size: '0.01',
      presetStopSurplusPrice: '61000',
      presetStopLossPrice: '58000',
      ...MARK,
    }),
  );
  const replaced = data<{ orderId: string }>(
    await client.post('/api/v2/mix/order/modify-order', {
      body: {
        ...PRODUCT,
        symbol: 'BTCUSDT',
        marginCoin: 'USDT',
        orderId: placed.orderId,
        newClientOid: 'moved',
        newPresetStopSurplusPrice: '61500',
        newPresetStopLossPrice: '0',
      },
    }),
  );
  const row = await detail(client, { orderId: replaced.orderId });
  assert.deepEqual(
    [row.state, row.price, row.presetStopSurplusPrice, row.presetStopSurplusType, row.presetStopLossPrice],
    ['live', '59000', '61500', 'mark_price', ''],
  );
  assert.equal((await detail(client, { orderId: placed.orderId })).state, 'canceled');
});

test('place-order when presets break the rules answers the venue codes; spot checks presets; unknown orders 40109 / 43001', async (t) => {
  const { trader, order } = await setup(t);
  const client = await trader('one_way_mode');
  const code = async (fields: Row) => {
    const answer = await order(client, { side: 'buy', price: '60000', size: '0.01', ...fields });
    return [answer.body?.code, answer.body?.msg];
  };
  assert.deepEqual(await code({ presetStopSurplusPrice: '59000' }), [
    '40895',
    'The preset price does not match the order/execution price',
  ]);
  assert.deepEqual(await code({ presetStopLossPrice: '60500' }), [
    '40895',
    'The preset price does not match the order/execution price',
  ]);
  // A market order's presets are compared with the current price (mark 60000, no trade yet).
  assert.deepEqual(await code({ orderType: 'market', price: undefined, presetStopLossPrice: '61000' }), [
    '40834',
    'The stop loss price of the long position should be less than the current price',
  ]);
  assert.deepEqual(await code({ presetStopLossPrice: '59000.05' }), [
    '40808',
    'Parameter verification exception stopLossTriggerPrice scale error',
  ]);
  assert.deepEqual(await code({ presetStopSurplusExecutePrice: '61000' }), [
    '40019',
    'Parameter presetStopSurplusPrice cannot be empty',
  ]);
  assert.deepEqual(await code({ side: 'sell', reduceOnly: 'YES', presetStopSurplusPrice: '59000' }), [
    '40020',
    'Parameter presetStopSurplusPrice error',
  ]);
  assert.deepEqual(await code({ presetStopSurplusType: 'index_price', presetStopSurplusPrice: '61000' }), [
    '40020',
    'Parameter presetStopSurplusType error',
  ]);

  const spot = await client.post('/api/v2/spot/trade/place-order', {
    body: {
      symbol: 'BTCUSDT',
      side: 'buy',
      orderType: 'limit',
      force: 'gtc',
      price: '60000',
      size: '0.001',
      presetTakeProfitPrice: '59000',
    },
  });
  // A spot buy's TP must lie above its price (spot presets: spot-presets.scenario.test.ts).
  assert.deepEqual(
    [spot.body?.code, spot.body?.msg],
    ['40895', 'The preset price does not match the order/execution price'],
  );
  const spotTpsl = await client.post('/api/v2/spot/trade/place-order', {
    body: {
      symbol: 'BTCUSDT',
      side: 'sell',
      orderType: 'market',
      size: '0.001',
      tpslType: 'tpsl',
      triggerPrice: '58000',
    },
  });
  assert.equal(spotTpsl.body?.code, '40020');

  const unknown = { ...PRODUCT, symbol: 'BTCUSDT', orderId: '1234567890123456789' };
  const missing = await client.get('/api/v2/mix/order/detail', { query: unknown });
  assert.deepEqual(
    [missing.body?.code, missing.body?.msg],
    ['40109', 'The data of the order cannot be found, please confirm the order number'],
  );
  const cancelled = await client.post('/api/v2/mix/order/cancel-order', { body: unknown });
  assert.deepEqual([cancelled.body?.code, cancelled.body?.msg], ['43001', 'The order does not exist']);
  assert.deepEqual(
    data<{ entrustedList: Row[] }>(await client.get('/api/v2/mix/order/orders-pending', { query: PRODUCT }))
      .entrustedList,
    [],
  );
});
