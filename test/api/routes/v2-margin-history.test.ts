/**
 * The v2 margin history routes when a filter (loanId, repayId, orderId, clientOid, the wallet
 * of an order or fill) matches only rows older than the first page: the filter is applied
 * before the limit, so the match is found, never an empty page.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { data, harness, mainAccount, type Harness, type Rows } from './broker-helpers.ts';

const CROSSED = '/api/v2/margin/crossed';
const ISOLATED = '/api/v2/margin/isolated';

async function priced(h: Harness): Promise<void> {
  for (const category of ['SPOT', 'MARGIN'])
    await h.operator.setPrice({ category, symbol: 'BTCUSDT', indexPrice: '60000' });
}

const since = () => String(Date.now() - 60_000);

test('margin borrow and repay history when filtered by an older loanId or repayId under limit 1 find it', async (t) => {
  const h = await harness(t);
  await priced(h);
  const trader = await mainAccount(h, { funds: [['crossed_margin', 'USDT', '1000']] });
  const loanIds: string[] = [];
  for (const amount of ['10', '20']) {
    const loan = data<{ loanId: string }>(
      await trader.client.post(`${CROSSED}/account/borrow`, { body: { coin: 'USDT', borrowAmount: amount } }),
    );
    loanIds.push(loan.loanId);
  }
  const repayIds: string[] = [];
  for (const amount of ['5', '6']) {
    const repaid = data<{ repayId: string }>(
      await trader.client.post(`${CROSSED}/account/repay`, { body: { coin: 'USDT', repayAmount: amount } }),
    );
    repayIds.push(repaid.repayId);
  }
  const borrows = data<{ resultList: Rows }>(
    await trader.client.get(`${CROSSED}/borrow-history`, {
      query: { startTime: since(), limit: '1', loanId: loanIds[0] ?? '' },
    }),
  );
  assert.deepEqual(
    borrows.resultList.map((row) => [row.loanId, row.borrowAmount]),
    [[loanIds[0], '10']],
  );
  const repays = data<{ resultList: Rows }>(
    await trader.client.get(`${CROSSED}/repay-history`, {
      query: { startTime: since(), limit: '1', repayId: repayIds[0] ?? '' },
    }),
  );
  assert.deepEqual(
    repays.resultList.map((row) => row.repayId),
    [repayIds[0]],
  );
});

test('margin history orders and fills when newer rows belong to the other wallet or another order still fill the page', async (t) => {
  const h = await harness(t);
  await priced(h);
  const maker = await mainAccount(h, { funds: [['crossed_margin', 'BTC', '1']] });
  const trader = await mainAccount(h, {
    funds: [
      ['crossed_margin', 'USDT', '1000'],
      ['isolated_margin:BTCUSDT', 'USDT', '1000'],
    ],
  });
  const place = async (client: typeof trader.client, path: string, body: Record<string, string>) =>
    data<{ orderId: string }>(
      await client.post(`${path}/place-order`, {
        body: { symbol: 'BTCUSDT', orderType: 'limit', force: 'gtc', loanType: 'normal', ...body },
      }),
    ).orderId;
  await place(maker.client, CROSSED, { side: 'sell', price: '60000', baseSize: '0.01' });
  // One crossed fill, then two isolated ones (newer).
  const crossedBuy = await place(trader.client, CROSSED, {
    side: 'buy',
    price: '60000',
    baseSize: '0.001',
    clientOid: 'crossed-1',
  });
  for (let at = 0; at < 2; at += 1)
    await place(trader.client, ISOLATED, { side: 'buy', price: '60000', baseSize: '0.001' });
  const query = { symbol: 'BTCUSDT', startTime: since() };

  const orders = data<{ orderList: Rows }>(
    await trader.client.get(`${CROSSED}/history-orders`, { query: { ...query, limit: '1' } }),
  );
  assert.deepEqual(
    orders.orderList.map((row) => row.orderId),
    [crossedBuy],
  );
  const isolatedOrders = data<{ orderList: Rows }>(
    await trader.client.get(`${ISOLATED}/history-orders`, { query: { ...query, limit: '1' } }),
  );
  assert.equal(isolatedOrders.orderList.length, 1);
  assert.notEqual(isolatedOrders.orderList[0]?.orderId, crossedBuy);
  const byClientOid = data<{ orderList: Rows }>(
    await trader.client.get(`${CROSSED}/history-orders`, {
      query: { ...query, limit: '1', clientOid: 'crossed-1' },
    }),
  );
  assert.deepEqual(
    byClientOid.orderList.map((row) => row.orderId),
    [crossedBuy],
  );
  const fills = data<{ fills: Rows }>(
    await trader.client.get(`${CROSSED}/fills`, { query: { ...query, limit: '1' } }),
  );
  assert.deepEqual(
    fills.fills.map((row) => row.orderId),
    [crossedBuy],
  );
  // The isolated wallet's own two fills, none of the crossed one.
  const isolatedFills = data<{ fills: Rows }>(
    await trader.client.get(`${ISOLATED}/fills`, { query: { ...query, limit: '5' } }),
  );
  assert.equal(isolatedFills.fills.length, 2);
});
