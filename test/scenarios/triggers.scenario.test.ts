/**
 * Trigger orders over real HTTP (v2 mix), prices moved by the operator (mark = index while the
 * book is one-sided) and by trades (last price). BTCUSDT USDT-M: taker 0.06 %, leverage 20,
 * crossed, one-way unless a test switches to hedge. Figures computed by hand in comments.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';
import { data, type Row } from '../support/scenario.ts';

const PRODUCT = { productType: 'USDT-FUTURES' };
const BASE = { symbol: 'BTCUSDT', productType: 'USDT-FUTURES', marginMode: 'crossed', marginCoin: 'USDT' };

async function setup(t: Parameters<typeof serverFor>[0]) {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const trader = async (usdt = '10000') => {
    const { uid } = await operator.createAccount();
    await operator.deposit(uid, { coin: 'USDT', amount: usdt, wallet: 'usdt_futures' });
    return new SigningClient(server.url, await operator.createApiKey(uid));
  };
  const order = async (client: SigningClient, fields: Row) =>
    data<{ orderId: string }>(
      await client.post('/api/v2/mix/order/place-order', {
        body: { ...BASE, orderType: 'limit', force: 'gtc', ...fields },
      }),
    );
  /** A fresh account's resting order (liquidity). */
  const rest = async (side: string, price: string, size: string) =>
    order(await trader('1000000'), { side, price, size });
  /** `client` trades `size` at `price` against a fresh counterparty (one-way: buy opens long). */
  const trade = async (client: SigningClient, side: 'buy' | 'sell', price: string, size: string) => {
    await rest(side === 'buy' ? 'sell' : 'buy', price, size);
    await order(client, { side, price, size });
  };
  const setPrice = (indexPrice: string) =>
    operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice });
  return { server, operator, trader, order, rest, trade, setPrice };
}

async function plan(client: SigningClient, fields: Row): Promise<{ orderId: string; clientOid: string }> {
  return data(
    await client.post('/api/v2/mix/order/place-plan-order', {
      body: { ...BASE, planType: 'normal_plan', orderType: 'market', triggerType: 'mark_price', ...fields },
    }),
  );
}

async function pending(client: SigningClient, planType = 'normal_plan'): Promise<Row[]> {
  return data<{ entrustedList: Row[] }>(
    await client.get('/api/v2/mix/order/orders-plan-pending', { query: { ...PRODUCT, planType } }),
  ).entrustedList;
}

async function history(client: SigningClient, planType = 'normal_plan'): Promise<Row[]> {
  return data<{ entrustedList: Row[] }>(
    await client.get('/api/v2/mix/order/orders-plan-history', { query: { ...PRODUCT, planType } }),
  ).entrustedList;
}

async function detail(client: SigningClient, orderId: string): Promise<Row> {
  return data(
    await client.get('/api/v2/mix/order/detail', { query: { ...PRODUCT, symbol: 'BTCUSDT', orderId } }),
  );
}

async function available(client: SigningClient): Promise<string> {
  const [row] = data<Row[]>(await client.get('/api/v2/mix/account/accounts', { query: PRODUCT }));
  return String(row?.available);
}

function conserved(server: TestServer): void {
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
}

test('stop-market on mark price closes a long at the bid when the mark falls to the trigger', async (t) => {
  const { server, trader, trade, rest, setPrice } = await setup(t);
  const long = await trader();
  await trade(long, 'buy', '60000', '0.1');
  await rest('buy', '58000', '1');
  const placed = await plan(long, {
    side: 'sell',
    size: '0.1',
    triggerPrice: '59000',
    reduceOnly: 'YES',
    clientOid: 'stop-1',
  });
  assert.equal(placed.clientOid, 'stop-1');
  const [row] = await pending(long);
  assert.equal(row?.orderId, placed.orderId);
  assert.equal(row?.planStatus, 'live');
  assert.equal(row?.triggerPrice, '59000');
  assert.equal(row?.side, 'sell');
  assert.equal(row?.posSide, 'net');
  assert.equal(row?.tradeSide, 'reduce_sell_single');
  assert.equal(row?.marginMode, 'crossed');

  await setPrice('59100');
  assert.equal((await pending(long)).length, 1, 'not touched at 59100');
  await setPrice('59000');
  assert.deepEqual(await pending(long), []);
  const [done] = await history(long);
  assert.equal(done?.planStatus, 'executed');
  assert.equal(done?.priceAvg, '58000', 'a market order fills at the bid, not at the trigger');
  assert.equal(done?.baseVolume, '0.1');
  const order = await detail(long, String(done?.executeOrderId));
  assert.equal(order.state, 'filled');
  assert.equal(order.orderSource, 'plan');
  // 10000 − 3.6 (open fee 6000 × 0.0006) − 200 (58000 − 60000) × 0.1 − 3.48 (5800 × 0.0006).
  assert.equal(await available(long), '9792.92');
  conserved(server);
});

test('stop-limit on last price places its limit when a trade touches the trigger (hedge mode)', async (t) => {
  const { trader, trade, setPrice } = await setup(t);
  const hedger = await trader();
  data(
    await hedger.post('/api/v2/mix/account/set-position-mode', {
      body: { productType: 'USDT-FUTURES', posMode: 'hedge_mode' },
    }),
  );
  const placed = await plan(hedger, {
    side: 'buy',
    tradeSide: 'open',
    orderType: 'limit',
    price: '60600',
    size: '0.01',
    triggerPrice: '60500',
    triggerType: 'fill_price',
  });
  const [row] = await pending(hedger);
  assert.deepEqual(
    [row?.side, row?.posSide, row?.tradeSide, row?.price, row?.posMode],
    ['buy', 'long', 'open', '60600', 'hedge_mode'],
  );
  // Close long in v2 hedge terms: side buy (the position) + tradeSide close; it sells.
  const closeLong = await plan(hedger, {
    side: 'buy',
    tradeSide: 'close',
    size: '0.01',
    triggerPrice: '50000',
  });
  const closeRow = (await pending(hedger)).find((row) => row.orderId === closeLong.orderId);
  assert.deepEqual([closeRow?.side, closeRow?.posSide, closeRow?.tradeSide], ['buy', 'long', 'close']);
  data(
    await hedger.post('/api/v2/mix/order/cancel-plan-order', {
      body: { ...PRODUCT, symbol: 'BTCUSDT', orderIdList: [{ orderId: closeLong.orderId }] },
    }),
  );
  await setPrice('61000');
  assert.equal((await pending(hedger)).length, 1, 'the mark does not move a fill_price plan');
  const other = await trader();
  await trade(other, 'buy', '60400', '0.01');
  assert.equal((await pending(hedger)).length, 1);
  await trade(other, 'buy', '60500', '0.01');
  const done = (await history(hedger)).find((row) => row.orderId === placed.orderId);
  assert.equal(done?.planStatus, 'executed');
  const open = data<{ entrustedList: Row[] }>(
    await hedger.get('/api/v2/mix/order/orders-pending', { query: PRODUCT }),
  ).entrustedList;
  assert.deepEqual(
    open.map((row) => [row.orderId, row.price, row.status, row.orderSource, row.posSide, row.tradeSide]),
    [[done?.executeOrderId, '60600', 'live', 'plan', 'long', 'open']],
  );
});

test('ccxt trigger shapes: a limit with price and executePrice, a market with executePrice only', async (t) => {
  const { trader } = await setup(t);
  const client = await trader();
  // ccxt createOrder('BTC/USDT:USDT', type, 'buy', 0.01, 61100, { triggerPrice: 61000 }).
  const ccxtBody = (type: string) => ({
    symbol: 'BTCUSDT',
    orderType: type,
    ...(type === 'limit' ? { price: '61100' } : {}),
    marginCoin: 'USDT',
    size: '0.01',
    productType: 'USDT-FUTURES',
    triggerType: 'mark_price',
    planType: 'normal_plan',
    triggerPrice: '61000',
    executePrice: '61100',
    marginMode: 'crossed',
    side: 'buy',
  });
  for (const type of ['limit', 'market']) {
    data(await client.post('/api/v2/mix/order/place-plan-order', { body: ccxtBody(type) }));
  }
  const rows = await pending(client);
  assert.deepEqual(rows.map((row) => [row.orderType, row.price]).sort(), [
    ['limit', '61100'],
    ['market', ''],
  ]);
});

test('stop-limit on mark and stop-market on last price', async (t) => {
  const { trader, trade, rest, setPrice } = await setup(t);
  const client = await trader();
  const limitOnMark = await plan(client, {
    side: 'buy',
    size: '0.01',
    triggerPrice: '61000',
    orderType: 'limit',
    price: '61100',
  });
  const marketOnLast = await plan(client, {
    side: 'sell',
    size: '0.01',
    triggerPrice: '59500',
    triggerType: 'fill_price',
  });
  await rest('sell', '61050', '0.01');
  await setPrice('61000');
  const [limitDone] = await history(client);
  assert.equal(limitDone?.orderId, limitOnMark.orderId);
  assert.equal(limitDone?.priceAvg, '61050', 'the limit at 61100 takes the ask at 61050');
  await rest('buy', '59000', '0.01');
  await trade(await trader(), 'sell', '59500', '0.01');
  const done = await history(client);
  assert.equal(done[0]?.orderId, marketOnLast.orderId);
  assert.equal(done[0]?.priceAvg, '59000');
});

test('a gap through the trigger fires at the first evaluation and fills at the market', async (t) => {
  const { trader, trade, rest, setPrice } = await setup(t);
  const long = await trader();
  await trade(long, 'buy', '60000', '0.1');
  await rest('buy', '56500', '1');
  await plan(long, { side: 'sell', size: '0.1', triggerPrice: '59000', reduceOnly: 'YES' });
  await setPrice('57000');
  const [done] = await history(long);
  assert.equal(done?.priceAvg, '56500', 'not 59000');
  // 10000 − 3.6 − 350 (56500 − 60000) × 0.1 − 3.39 (5650 × 0.0006).
  assert.equal(await available(long), '9643.01');
});

test('trailing sell (ccxt shape) ratchets up through three highs and fires on the retrace', async (t) => {
  const { server, trader, trade, rest, setPrice } = await setup(t);
  const long = await trader();
  await trade(long, 'buy', '60000', '0.1');
  await rest('buy', '62600', '1');
  // ccxt's trailing-stop body (wire.md §5.4).
  const placed = data<{ orderId: string }>(
    await long.post('/api/v2/mix/order/place-plan-order', {
      body: {
        symbol: 'BTCUSDT',
        orderType: 'market',
        marginCoin: 'USDT',
        size: '0.1',
        productType: 'USDT-FUTURES',
        triggerType: 'mark_price',
        planType: 'track_plan',
        triggerPrice: '61000',
        callbackRatio: '2',
        marginMode: 'crossed',
        side: 'sell',
        reduceOnly: 'YES',
        force: 'GTC',
      },
    }),
  );
  const [row] = await pending(long, 'track_plan');
  assert.deepEqual(
    [row?.planType, row?.callbackRatio, row?.price, row?.triggerPrice],
    ['track_plan', '2', '', '61000'],
  );
  // Activates at 61000; highs 62000, 63000, 64000; stop = 64000 × 0.98 = 62720.
  for (const price of ['61000', '62000', '63000', '64000', '62721']) await setPrice(price);
  assert.equal((await pending(long, 'track_plan')).length, 1, 'above the stop');
  await setPrice('62720');
  const [done] = await history(long, 'track_plan');
  assert.equal(done?.orderId, placed.orderId);
  assert.equal(done?.priceAvg, '62600');
  // 10000 − 3.6 + 260 (62600 − 60000) × 0.1 − 3.756 (6260 × 0.0006).
  assert.equal(await available(long), '10252.644');
  conserved(server);
});

test('trailing buy mirrors it: follows three lows and fires on the rise', async (t) => {
  const { trader, trade, rest, setPrice } = await setup(t);
  const short = await trader();
  await trade(short, 'sell', '60000', '0.1');
  await rest('sell', '57300', '1');
  await plan(short, {
    planType: 'track_plan',
    side: 'buy',
    size: '0.1',
    triggerPrice: '59000',
    callbackRatio: '2',
    reduceOnly: 'YES',
  });
  // Activates at 59000; lows 58000, 57000, 56000; stop = 56000 × 1.02 = 57120.
  for (const price of ['59000', '58000', '57000', '56000', '57119.9']) await setPrice(price);
  assert.equal((await pending(short, 'track_plan')).length, 1);
  await setPrice('57120');
  const [done] = await history(short, 'track_plan');
  assert.equal(done?.priceAvg, '57300');
  // 10000 − 3.6 + 270 (60000 − 57300) × 0.1 − 3.438 (5730 × 0.0006).
  assert.equal(await available(short), '10262.962');
});

test('TP/SL presets become position TP/SL when the plan fills, and the TP closes the position', async (t) => {
  const { server, trader, rest, setPrice } = await setup(t);
  const client = await trader();
  await rest('sell', '60600', '0.1');
  await plan(client, {
    side: 'buy',
    size: '0.1',
    triggerPrice: '60500',
    stopSurplusTriggerPrice: '62000',
    stopSurplusTriggerType: 'mark_price',
    stopLossTriggerPrice: '59000',
    stopLossTriggerType: 'mark_price',
  });
  const [row] = await pending(client);
  assert.deepEqual([row?.stopSurplusTriggerPrice, row?.stopLossTriggerPrice], ['62000', '59000']);
  await setPrice('60500');
  const tpsl = await pending(client, 'profit_loss');
  assert.deepEqual(
    tpsl.map((plan) => [plan.planType, plan.triggerPrice, plan.size, plan.side, plan.tradeSide]).sort(),
    [
      ['pos_loss', '59000', '0', 'sell', 'reduce_sell_single'],
      ['pos_profit', '62000', '0', 'sell', 'reduce_sell_single'],
    ],
  );
  await rest('buy', '61900', '1');
  await setPrice('62000');
  assert.deepEqual(await pending(client, 'profit_loss'), []);
  const ended = await history(client, 'profit_loss');
  assert.deepEqual(ended.map((plan) => [plan.planType, plan.planStatus]).sort(), [
    ['pos_loss', 'cancelled'],
    ['pos_profit', 'executed'],
  ]);
  const takeProfit = ended.find((plan) => plan.planType === 'pos_profit');
  assert.equal(takeProfit?.priceAvg, '61900');
  assert.equal((await detail(client, String(takeProfit?.executeOrderId))).orderSource, 'pos_profit_market');
  const positions = data<Row[]>(
    await client.get('/api/v2/mix/position/all-position', { query: { ...PRODUCT, marginCoin: 'USDT' } }),
  );
  assert.deepEqual(positions, []);
  // 10000 − 3.636 (6060 × 0.0006) + 130 (61900 − 60600) × 0.1 − 3.714 (6190 × 0.0006).
  assert.equal(await available(client), '10122.65');
  conserved(server);
});

test('cancel-plan-order by list, by symbol and by plan type', async (t) => {
  const { trader } = await setup(t);
  const client = await trader();
  const a = await plan(client, { side: 'sell', size: '0.01', triggerPrice: '59000', clientOid: 'c-a' });
  const b = await plan(client, { side: 'sell', size: '0.01', triggerPrice: '58000' });
  const c = await plan(client, { side: 'buy', size: '0.01', triggerPrice: '61000' });
  const trailing = await plan(client, {
    planType: 'track_plan',
    side: 'sell',
    size: '0.01',
    triggerPrice: '61000',
    callbackRatio: '1',
  });
  const eth = await plan(client, { symbol: 'ETHUSDT', side: 'sell', size: '0.1', triggerPrice: '2900' });
  const cancel = async (body: Row) =>
    data<{ successList: Row[]; failureList: Row[] }>(
      await client.post('/api/v2/mix/order/cancel-plan-order', { body: { ...PRODUCT, ...body } }),
    );
  const missingSymbol = await client.post('/api/v2/mix/order/cancel-plan-order', {
    body: { ...PRODUCT, orderIdList: [{ orderId: a.orderId }] },
  });
  assert.equal(missingSymbol.body?.code, '40019');
  const byList = await cancel({
    symbol: 'BTCUSDT',
    orderIdList: [{ clientOid: 'c-a' }, { orderId: '999', clientOid: 'x' }, { orderId: trailing.orderId }],
  });
  assert.deepEqual(byList.successList, [{ orderId: a.orderId, clientOid: 'c-a' }]);
  assert.deepEqual(
    byList.failureList.map((item) => [item.orderId, item.errorMsg]),
    [
      ['999', 'notExistend'],
      [trailing.orderId, 'notExistend'],
    ],
  );
  const bySymbol = await cancel({ symbol: 'BTCUSDT' });
  assert.deepEqual(bySymbol.successList.map((item) => item.orderId).sort(), [b.orderId, c.orderId].sort());
  const byType = await cancel({ planType: 'track_plan' });
  assert.deepEqual(
    byType.successList.map((item) => item.orderId),
    [trailing.orderId],
  );
  assert.deepEqual(
    (await pending(client)).map((row) => row.orderId),
    [eth.orderId],
  );
  const cancelled = await history(client);
  assert.deepEqual(
    cancelled.map((row) => [row.orderId, row.planStatus]),
    [
      [c.orderId, 'cancelled'],
      [b.orderId, 'cancelled'],
      [a.orderId, 'cancelled'],
    ],
  );
});

test('a plan without margin ends fail_execute with the reason and holds nothing', async (t) => {
  const { trader, rest, setPrice } = await setup(t);
  const poor = await trader('10');
  await rest('sell', '60500', '1');
  const placed = await plan(poor, { side: 'buy', size: '0.1', triggerPrice: '60400' });
  assert.equal(await available(poor), '10', 'a waiting plan reserves nothing');
  await setPrice('60400');
  const [done] = await history(poor);
  assert.deepEqual(
    [done?.orderId, done?.planStatus, done?.executeOrderId, done?.failCode],
    [placed.orderId, 'fail_execute', '', '40762'],
  );
  assert.equal(await available(poor), '10');
});

test('place-plan-order field rules answer the venue codes', async (t) => {
  const { trader } = await setup(t);
  const client = await trader();
  const code = async (fields: Row) =>
    (
      await client.post('/api/v2/mix/order/place-plan-order', {
        body: {
          ...BASE,
          planType: 'normal_plan',
          orderType: 'market',
          triggerType: 'mark_price',
          side: 'buy',
          size: '0.01',
          triggerPrice: '61000',
          ...fields,
        },
      })
    ).body?.code;
  assert.equal(await code({ planType: 'stop_plan' }), '40020');
  assert.equal(await code({ triggerType: undefined }), '40019');
  assert.equal(await code({ triggerType: 'index_price' }), '40020');
  assert.equal(await code({ orderType: 'limit' }), '40019', 'limit needs price');
  assert.equal(await code({ price: '61000' }), '40020', 'market takes no price');
  assert.equal(await code({ planType: 'track_plan' }), '40019', 'callbackRatio required');
  assert.equal(await code({ planType: 'track_plan', callbackRatio: '10.5' }), '40020');
  assert.equal(await code({ planType: 'track_plan', callbackRatio: '1', price: '61000' }), '40020');
  assert.equal(
    await code({ planType: 'track_plan', callbackRatio: '1', orderType: 'limit', price: '1' }),
    '40020',
  );
  assert.equal(await code({ tradeSide: 'open' }), '40774', 'tradeSide only in hedge mode');
  assert.equal(await code({ clientOid: 'bad oid!' }), '40020');
  assert.equal(await code({ triggerPrice: '61000.05' }), '40808');
  assert.equal(await code({ size: '0.00001' }), '40808');
  assert.equal(await code({ stopSurplusTriggerPrice: '62000' }), '40019', 'TP needs its trigger type');
  assert.equal(
    await code({ stopSurplusTriggerPrice: '60000', stopSurplusTriggerType: 'fill_price' }),
    '40895',
  );
  assert.equal(await code({ stpMode: 'cancel_all' }), '40020');
  assert.equal(await code({ marginMode: 'isolated' }), '40020');
  assert.equal(await code({ clientOid: 'dup-1' }), '00000');
  assert.equal(await code({ clientOid: 'dup-1' }), '40786');
  data(await client.post('/api/v2/mix/order/cancel-plan-order', { body: PRODUCT }));
  data(
    await client.post('/api/v2/mix/account/set-position-mode', {
      body: { ...PRODUCT, posMode: 'hedge_mode' },
    }),
  );
  // In hedge mode:
  assert.equal(await code({}), '40774', 'hedge mode needs tradeSide');
  assert.equal(
    await code({ tradeSide: 'open', reduceOnly: 'YES' }),
    '40774',
    'reduceOnly only in one-way mode',
  );
  assert.equal(await code({ tradeSide: 'open', reduceOnly: 'NO' }), '00000');
});

test('place-tpsl-order, place-pos-tpsl and modify-plan-order', async (t) => {
  const { trader, trade } = await setup(t);
  const client = await trader();
  const noPosition = await client.post('/api/v2/mix/order/place-tpsl-order', {
    body: { ...BASE, planType: 'pos_profit', triggerPrice: '62000', holdSide: 'buy', size: '0.1' },
  });
  assert.equal(noPosition.body?.code, '40837');
  await trade(client, 'buy', '60000', '0.1');
  const wrongSide = await client.post('/api/v2/mix/order/place-tpsl-order', {
    body: {
      ...BASE,
      planType: 'pos_profit',
      triggerPrice: '59000',
      triggerType: 'mark_price',
      holdSide: 'buy',
    },
  });
  assert.equal(wrongSide.body?.code, '40830');
  const tp = data<{ orderId: string }>(
    await client.post('/api/v2/mix/order/place-tpsl-order', {
      body: {
        ...BASE,
        planType: 'pos_profit',
        triggerPrice: '62000',
        triggerType: 'mark_price',
        holdSide: 'buy',
        size: '0.1',
      },
    }),
  );
  const both = data<Row[]>(
    await client.post('/api/v2/mix/order/place-pos-tpsl', {
      body: {
        ...BASE,
        holdSide: 'long',
        stopSurplusTriggerPrice: '63000',
        stopSurplusTriggerType: 'mark_price',
        stopLossTriggerPrice: '58000',
        stopLossExecutePrice: '57900',
        stopLossClientOid: 'sl-1',
      },
    }),
  );
  assert.equal(both.length, 2);
  assert.equal(both[0]?.stopLossClientOid, 'sl-1');
  const live = await pending(client, 'profit_loss');
  assert.deepEqual(
    live.map((row) => [row.planType, row.triggerPrice, row.orderType, row.executePrice]).sort(),
    [
      ['pos_loss', '58000', 'limit', '57900'],
      ['pos_profit', '63000', 'market', ''],
    ],
    'the new pos_profit replaced the first',
  );
  const replaced = (await history(client, 'profit_loss')).find((row) => row.orderId === tp.orderId);
  assert.equal(replaced?.planStatus, 'cancelled');
  const [position] = data<Row[]>(
    await client.get('/api/v2/mix/position/single-position', {
      query: { ...PRODUCT, symbol: 'BTCUSDT', marginCoin: 'USDT' },
    }),
  );
  const ids = Object.fromEntries(live.map((row) => [row.planType, row.orderId]));
  assert.deepEqual(
    [position?.takeProfit, position?.stopLoss, position?.takeProfitId, position?.stopLossId],
    ['63000', '58000', ids.pos_profit, ids.pos_loss],
  );

  const stop = await plan(client, { side: 'sell', size: '0.05', triggerPrice: '59000', reduceOnly: 'YES' });
  data(
    await client.post('/api/v2/mix/order/modify-plan-order', {
      body: {
        ...PRODUCT,
        symbol: 'BTCUSDT',
        planType: 'normal_plan',
        orderId: stop.orderId,
        newTriggerPrice: '58500',
        newSize: '0.06',
      },
    }),
  );
  const [modified] = await pending(client);
  assert.deepEqual([modified?.triggerPrice, modified?.size], ['58500', '0.06']);
  const unknown = await client.post('/api/v2/mix/order/modify-plan-order', {
    body: { ...PRODUCT, symbol: 'BTCUSDT', orderId: '1', newTriggerPrice: '58500' },
  });
  assert.equal(unknown.body?.code, '43025');
});

// 25 requests at once span at most two one-second windows (20 allowed) even under load.
test('place-plan-order and cancel-plan-order allow 10 requests per second per UID', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_RATE_LIMITS: 'x1' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { uid } = await operator.createAccount();
  await operator.deposit(uid, { coin: 'USDT', amount: '10000', wallet: 'usdt_futures' });
  const client = new SigningClient(server.url, await operator.createApiKey(uid));
  const body = {
    ...BASE,
    planType: 'normal_plan',
    orderType: 'market',
    triggerType: 'mark_price',
    side: 'sell',
    size: '0.01',
    triggerPrice: '59000',
  };
  const placed = await Promise.all(
    Array.from({ length: 25 }, () => client.post('/api/v2/mix/order/place-plan-order', { body })),
  );
  const codes = placed.map((response) => response.body?.code);
  assert.ok(codes.includes('429'), codes.join(','));
  const cancels = await Promise.all(
    Array.from({ length: 25 }, () => client.post('/api/v2/mix/order/cancel-plan-order', { body: PRODUCT })),
  );
  assert.ok(cancels.some((response) => response.status === 429));
});
