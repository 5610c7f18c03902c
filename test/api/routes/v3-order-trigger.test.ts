/**
 * A trigger price on v3 place-order (ccxt's trigger orders on a unified account) becomes the
 * trigger strategy order it describes: listed among the strategy orders, firing when the
 * price touches it; trailing stops, spot trigger prices and trigger prices in a batch are
 * refused and place nothing. BTCUSDT USDT-M, taker 0.06 %, one-way. Figures by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OperatorClient } from '../../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../../support/server.ts';
import { SigningClient } from '../../support/signing.ts';
import { data, type Row } from '../../support/scenario.ts';

const FUTURES = { category: 'USDT-FUTURES' };
const TRAILING = { trailingPercent: '2', trailingTriggerPrice: '59000' };

async function setup(t: Parameters<typeof serverFor>[0]) {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const account = async (usdt: string, coin = 'USDT') => {
    const { uid } = await operator.createAccount({ mode: 'unified' });
    await operator.deposit(uid, { coin, amount: usdt, wallet: 'unified' });
    return new SigningClient(server.url, await operator.createApiKey(uid));
  };
  const setPrice = (indexPrice: string) =>
    operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice });
  return { account, setPrice };
}

const placeOrder = (client: SigningClient, fields: Row) =>
  client.post('/api/v3/trade/place-order', { body: { ...FUTURES, symbol: 'BTCUSDT', ...fields } });

async function strategyOrders(client: SigningClient, path: string): Promise<Row[]> {
  const answer = data<Row[] | { list: Row[] }>(
    await client.get(`/api/v3/trade/${path}`, { query: { ...FUTURES, type: 'trigger' } }),
  );
  return Array.isArray(answer) ? answer : answer.list;
}

test('place-order with a trigger price rests as a trigger strategy order and buys when the mark reaches it', async (t) => {
  const { account, setPrice } = await setup(t);
  await setPrice('60000');
  const maker = await account('1000000');
  await placeOrder(maker, { side: 'sell', orderType: 'limit', price: '61500', qty: '0.1' });
  const client = await account('10000');
  const placed = data<{ orderId: string; clientOid: string }>(
    await placeOrder(client, {
      side: 'buy',
      orderType: 'market',
      qty: '0.1',
      triggerPrice: '61000',
      triggerType: 'mark_price',
      clientOid: 'uta-trigger-1',
    }),
  );
  assert.equal(placed.clientOid, 'uta-trigger-1');
  // Not an ordinary order: nothing rests in the book, the strategy order waits.
  const open = data<{ list: Row[] }>(await client.get('/api/v3/trade/unfilled-orders', { query: FUTURES }));
  assert.deepEqual(open.list, []);
  const [row] = await strategyOrders(client, 'unfilled-strategy-orders');
  assert.deepEqual(
    [row?.orderId, row?.type, row?.status, row?.triggerPrice, row?.triggerBy, row?.qty],
    [placed.orderId, 'trigger', 'pending', '61000', 'mark', '0.1'],
  );
  await setPrice('60999.9');
  assert.equal((await strategyOrders(client, 'unfilled-strategy-orders')).length, 1, 'not touched yet');
  // The book is one-sided (the maker's ask), so the mark is the index: 61000 touches it.
  await setPrice('61000');
  assert.deepEqual(await strategyOrders(client, 'unfilled-strategy-orders'), []);
  const [done] = await strategyOrders(client, 'history-strategy-orders');
  assert.deepEqual([done?.orderId, done?.status], [placed.orderId, 'success']);
  const positions = data<{ list: Row[] }>(
    await client.get('/api/v3/position/current-position', { query: FUTURES }),
  );
  assert.deepEqual(
    [positions.list[0]?.posSide, positions.list[0]?.total, positions.list[0]?.avgPrice],
    ['long', '0.1', '61500'],
  );
  // 10000 − 3.69 taker fee (0.1 × 61500 = 6150; × 0.0006).
  const assets = data<{ assets: Row[] }>(await client.get('/api/v3/account/assets'));
  assert.equal(assets.assets.find((asset) => asset.coin === 'USDT')?.balance, '9996.31');
});

test('a limit trigger order from place-order, and a trailing stop, and what place-order refuses rather than ignores', async (t) => {
  const { account, setPrice } = await setup(t);
  await setPrice('60000');
  const client = await account('10000');
  const limit = data<{ orderId: string }>(
    await placeOrder(client, {
      side: 'sell',
      orderType: 'limit',
      price: '58900',
      qty: '0.01',
      stopPrice: '59000',
    }),
  );
  const [row] = await strategyOrders(client, 'unfilled-strategy-orders');
  assert.deepEqual(
    [row?.orderId, row?.triggerPrice, row?.triggerBy, row?.triggerOrderType, row?.triggerOrderPrice],
    [limit.orderId, '59000', 'market', 'limit', '58900'],
  );
  const refusals: [Row, string][] = [
    [{ side: 'buy', orderType: 'limit', price: '61000', qty: '0.01', ...TRAILING }, 'orderType'],
    [{ category: 'SPOT', side: 'buy', orderType: 'market', qty: '10', ...TRAILING }, 'trailingPercent'],
    [
      {
        side: 'buy',
        orderType: 'limit',
        price: '61000',
        qty: '0.01',
        triggerPrice: '61000',
        timeInForce: 'ioc',
      },
      'timeInForce',
    ],
    [
      {
        category: 'MARGIN',
        side: 'buy',
        orderType: 'limit',
        price: '61000',
        qty: '0.01',
        triggerPrice: '61000',
      },
      'triggerPrice',
    ],
  ];
  for (const [fields, name] of refusals) {
    const answer = await placeOrder(client, fields);
    assert.equal(answer.body?.code, '40020', answer.text);
    assert.match(String(answer.body?.msg), new RegExp(`Parameter ${name} error`));
  }
  const noActivation = await placeOrder(client, {
    side: 'buy',
    orderType: 'market',
    qty: '0.01',
    trailingPercent: '2',
  });
  assert.equal(noActivation.body?.code, '40019', noActivation.text);
  const batch = data<Row[]>(
    await client.post('/api/v3/trade/place-batch', {
      body: [
        { ...FUTURES, symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', price: '50000', qty: '0.01' },
        {
          ...FUTURES,
          symbol: 'BTCUSDT',
          side: 'buy',
          orderType: 'market',
          qty: '0.01',
          triggerPrice: '61000',
        },
      ],
    }),
  );
  assert.equal(batch[1]?.code, '40020');
  assert.match(String(batch[1]?.msg), /trigger order is placed alone/);
  // ccxt's trailing stop (createTrailingPercentOrder): a trailing trigger order, as on v2.
  const trailing = data<{ orderId: string }>(
    await placeOrder(client, { side: 'buy', orderType: 'market', qty: '0.01', ...TRAILING }),
  );
  const rows = await strategyOrders(client, 'unfilled-strategy-orders');
  assert.deepEqual(
    rows.map((listed) => [listed.orderId, listed.triggerPrice, listed.callbackRatio]),
    [
      [trailing.orderId, '59000', '2'],
      [limit.orderId, '59000', ''],
    ],
  );
  // Nothing was placed by the refusals: two strategy orders, one resting order (the batch's first).
  const open = data<{ list: Row[] }>(await client.get('/api/v3/trade/unfilled-orders', { query: FUTURES }));
  assert.deepEqual(
    open.list.map((order) => order.orderId),
    [batch[0]?.orderId],
  );
});

test('a SPOT place-order with a trigger price is a spot plan of the unified account, listed with the SPOT strategy orders', async (t) => {
  const { account } = await setup(t);
  const spot = (client: SigningClient, fields: Row) =>
    client.post('/api/v3/trade/place-order', { body: { category: 'SPOT', symbol: 'BTCUSDT', ...fields } });
  const maker = await account('1', 'BTC');
  const other = await account('10000');
  const trader = await account('10000');
  data(await spot(maker, { side: 'sell', orderType: 'limit', price: '60500', qty: '0.001' }));
  data(await spot(maker, { side: 'sell', orderType: 'limit', price: '60600', qty: '0.01' }));
  // A market buy's qty is quote coin on v3 spot: 121.2 USDT when the last price reaches 60500.
  const placed = data<{ orderId: string }>(
    await spot(trader, { side: 'buy', orderType: 'market', qty: '121.2', triggerPrice: '60500' }),
  );
  const listed = data<Row[]>(
    await trader.get('/api/v3/trade/unfilled-strategy-orders', { query: { category: 'SPOT' } }),
  );
  assert.deepEqual(
    listed.map((row) => [row.orderId, row.type, row.side, row.qty, row.triggerPrice, row.triggerBy]),
    [[placed.orderId, 'trigger', 'buy', '121.2', '60500', 'market']],
  );
  const withPreset = await spot(trader, {
    side: 'buy',
    orderType: 'market',
    qty: '100',
    triggerPrice: '60500',
    takeProfit: '70000',
  });
  assert.equal(withPreset.body?.code, '40020', withPreset.text);
  // A trade at 60500 fires it: 121.2 USDT buys 0.002 BTC at the 60600 ask, less 0.000002 fee.
  data(await spot(other, { side: 'buy', orderType: 'limit', price: '60500', qty: '0.001' }));
  const assets = data<{ assets: Row[] }>(await trader.get('/api/v3/account/assets'));
  const balance = (coin: string) => assets.assets.find((asset) => asset.coin === coin)?.balance;
  assert.deepEqual([balance('BTC'), balance('USDT')], ['0.001998', '9878.8']);
});
