/**
 * Spot plan orders over real HTTP (v2 spot): a plan holds nothing while it waits, fires when
 * the last trade (fill_price) or the spot mark price (mark_price: the index while the book is
 * one-sided) reaches its trigger, and places an ordinary spot order that settles like any
 * other. BTCUSDT spot: maker and taker fee 0.1 %, a buyer pays it in BTC, a seller in USDT.
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
  const account = async (funds: [string, string][]) => {
    const { uid } = await operator.createAccount();
    for (const [coin, amount] of funds) await operator.deposit(uid, { coin, amount, wallet: 'spot' });
    return new SigningClient(server.url, await operator.createApiKey(uid));
  };
  const order = async (client: SigningClient, side: string, price: string, size: string) =>
    data<{ orderId: string }>(
      await client.post('/api/v2/spot/trade/place-order', {
        body: { symbol: 'BTCUSDT', side, orderType: 'limit', force: 'gtc', price, size },
      }),
    );
  const setIndex = (indexPrice: string) =>
    operator.setPrice({ category: 'SPOT', symbol: 'BTCUSDT', indexPrice });
  const conserved = () =>
    assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
  return { account, order, setIndex, conserved };
}

const plan = async (client: SigningClient, fields: Row) =>
  data<{ orderId: string; clientOid: string }>(
    await client.post('/api/v2/spot/trade/place-plan-order', { body: { symbol: 'BTCUSDT', ...fields } }),
  );

async function assets(client: SigningClient, coin: string): Promise<[string, string]> {
  const [row] = data<Row[]>(await client.get('/api/v2/spot/account/assets', { query: { coin } }));
  return [String(row?.available ?? '0'), String(row?.frozen ?? '0')];
}

async function history(client: SigningClient): Promise<Row[]> {
  return data<{ orderList: Row[] }>(
    await client.get('/api/v2/spot/trade/history-plan-order', { query: { symbol: 'BTCUSDT' } }),
  ).orderList;
}

async function subOrders(client: SigningClient, planOrderId: string): Promise<Row[]> {
  return data(await client.get('/api/v2/spot/trade/plan-sub-order', { query: { planOrderId } }));
}

test('a market buy plan by total fires on the last trade and buys at the ask with the fee in BTC', async (t) => {
  const { account, order, conserved } = await setup(t);
  const maker = await account([['BTC', '1']]);
  const trader = await account([['USDT', '10000']]);
  const other = await account([['USDT', '1000']]);
  await order(maker, 'sell', '60500', '0.001');
  await order(maker, 'sell', '60600', '0.02');
  // No trade yet: the plan is compared with the mark (the 60000 index, the book one-sided): up.
  const placed = await plan(trader, {
    side: 'buy',
    orderType: 'market',
    planType: 'total',
    size: '1212',
    triggerPrice: '60500',
    triggerType: 'fill_price',
    clientOid: 'spot-stop-buy',
  });
  assert.equal(placed.clientOid, 'spot-stop-buy');
  assert.deepEqual(await assets(trader, 'USDT'), ['10000', '0'], 'a waiting plan holds nothing');

  // A trade at 60500 (0.001 between two others) moves the last price to the trigger.
  await order(other, 'buy', '60500', '0.001');
  const [row] = await history(trader);
  assert.equal(row?.orderId, placed.orderId);
  assert.equal(row?.status, 'executed');
  assert.equal(row?.planType, 'total');
  assert.equal(row?.size, '1212');
  const [sub] = await subOrders(trader, placed.orderId);
  assert.equal(sub?.status, 'success');
  assert.equal(sub?.type, 'market');
  assert.equal(sub?.price, '60600', 'a market order fills at the ask, not at the trigger');
  const [detail] = data<Row[]>(
    await trader.get('/api/v2/spot/trade/orderInfo', { query: { orderId: String(sub?.orderId) } }),
  );
  assert.deepEqual(
    [detail?.orderType, detail?.size, detail?.baseVolume, detail?.quoteVolume, detail?.status],
    ['market', '1212', '0.02', '1212', 'filled'],
  );
  // 1212 USDT ÷ 60600 = 0.02 BTC; fee 0.1 % of it (0.00002 BTC) is taken from what was bought.
  assert.deepEqual(await assets(trader, 'USDT'), ['8788', '0']);
  assert.deepEqual(await assets(trader, 'BTC'), ['0.01998', '0']);
  conserved();
});

test('a stop-limit sell plan by amount fires on the mark price and sells at the bid', async (t) => {
  const { account, order, setIndex, conserved } = await setup(t);
  const bidder = await account([['USDT', '10000']]);
  const trader = await account([['BTC', '0.05']]);
  await order(bidder, 'buy', '59200', '0.01');
  const placed = await plan(trader, {
    side: 'sell',
    orderType: 'limit',
    executePrice: '59000',
    size: '0.01',
    triggerPrice: '59500',
    triggerType: 'mark_price',
    force: 'gtc',
  });
  const [live] = data<{ orderList: Row[] }>(
    await trader.get('/api/v2/spot/trade/current-plan-order', { query: { symbol: 'BTCUSDT' } }),
  ).orderList;
  assert.deepEqual(
    [live?.orderId, live?.status, live?.executePrice, live?.triggerPrice, live?.planType, live?.triggerType],
    [placed.orderId, 'live', '59000', '59500', 'amount', 'mark_price'],
  );
  assert.deepEqual(await assets(trader, 'BTC'), ['0.05', '0'], 'a waiting plan holds nothing');

  await setIndex('59600');
  assert.equal((await history(trader)).length, 0, 'not touched at 59600');
  await setIndex('59500');
  const [row] = await history(trader);
  assert.deepEqual([row?.orderId, row?.status], [placed.orderId, 'executed']);
  const [sub] = await subOrders(trader, placed.orderId);
  assert.deepEqual([sub?.type, sub?.price, sub?.status], ['limit', '59000', 'success']);
  // The limit sell at 59000 takes the 59200 bid: 0.01 × 59200 = 592 USDT, fee 0.592 USDT.
  assert.deepEqual(await assets(trader, 'BTC'), ['0.04', '0']);
  assert.deepEqual(await assets(trader, 'USDT'), ['591.408', '0']);
  // The bidder receives 0.01 BTC less its 0.1 % fee: 0.00999 BTC.
  assert.deepEqual(await assets(bidder, 'BTC'), ['0.00999', '0']);
  conserved();
});

test('a plan whose order is refused when it fires ends fail_execute and holds nothing', async (t) => {
  const { account, setIndex, conserved } = await setup(t);
  const trader = await account([['USDT', '100']]);
  const placed = await plan(trader, {
    side: 'buy',
    orderType: 'limit',
    executePrice: '58000',
    size: '0.01',
    triggerPrice: '59000',
    triggerType: 'mark_price',
  });
  // 0.01 × 58000 = 580 USDT is more than the 100 the account holds: accepted, checked on firing.
  await setIndex('59000');
  const [row] = await history(trader);
  assert.deepEqual([row?.orderId, row?.status], [placed.orderId, 'fail_execute']);
  assert.deepEqual(await subOrders(trader, placed.orderId), [
    { orderId: '', price: '58000', type: 'limit', status: 'fail' },
  ]);
  assert.deepEqual(await assets(trader, 'USDT'), ['100', '0']);
  conserved();
});
