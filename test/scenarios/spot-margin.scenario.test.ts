/**
 * Two accounts trade spot and margin against each other over real HTTP; every balance, fill,
 * bill and order state below was computed by hand from the default catalogue (BTCUSDT spot:
 * tick 0.01, lot 0.000001, maker and taker fee 0.1 %, charged in the coin received).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';
import { data } from '../support/scenario.ts';

type Rows = Record<string, string>[];

async function trader(operator: OperatorClient, url: string, wallet: string, funds: [string, string][]) {
  const { uid } = await operator.createAccount();
  for (const [coin, amount] of funds) await operator.deposit(uid, { coin, amount, wallet });
  const key = await operator.createApiKey(uid);
  return { uid, client: new SigningClient(url, key) };
}

test('spot scenario when two accounts trade through v2 and v3 ends with hand-computed figures', async (t) => {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const seller = await trader(operator, server.url, 'spot', [['BTC', '1']]);
  const buyer = await trader(operator, server.url, 'spot', [['USDT', '10000']]);

  const batch = data<{ successList: { orderId: string; clientOid: string }[]; failureList: unknown[] }>(
    await seller.client.post('/api/v2/spot/trade/batch-orders', {
      body: {
        symbol: 'BTCUSDT',
        batchMode: 'single',
        orderList: [
          { side: 'sell', orderType: 'limit', force: 'gtc', price: '60000', size: '0.1', clientOid: 'a1' },
          { side: 'sell', orderType: 'limit', force: 'GTC', price: '60500', size: '0.1', clientOid: 'a2' },
          {
            side: 'sell',
            orderType: 'limit',
            force: 'gtc',
            price: '60500.001',
            size: '0.1',
            clientOid: 'a3',
          },
        ],
      },
    }),
  );
  assert.equal(batch.successList.length, 2);
  assert.deepEqual(batch.failureList, [
    { orderId: '', clientOid: 'a3', errorMsg: 'param price scale error error', errorCode: '41103' },
  ]);

  const placed = data<{ orderId: string; clientOid: string }[]>(
    await buyer.client.post('/api/v3/trade/place-batch', {
      body: [
        {
          category: 'SPOT',
          symbol: 'BTCUSDT',
          side: 'buy',
          orderType: 'limit',
          qty: '0.15',
          price: '60600',
          clientOid: 'b1',
        },
        {
          category: 'SPOT',
          symbol: 'BTCUSDT',
          side: 'buy',
          orderType: 'limit',
          qty: '0.15',
          price: '60600',
          clientOid: 'b1',
        },
      ],
    }),
  );
  assert.equal(placed[0]?.clientOid, 'b1');
  assert.deepEqual(placed[1], { orderId: null, clientOid: 'b1', code: '25212', msg: 'Duplicate clientOid' });

  // Buyer paid 0.1 × 60000 + 0.05 × 60500 = 9025 USDT and received 0.15 BTC less 0.00015 fee.
  const buyerAssets = data<Rows>(await buyer.client.get('/api/v2/spot/account/assets'));
  assert.deepEqual(
    buyerAssets.map((row) => [row.coin, row.available, row.frozen]),
    [
      ['BTC', '0.14985', '0'],
      ['USDT', '975', '0'],
    ],
  );
  // Seller received 6000 − 6 + 3025 − 3.025 = 9015.975 USDT; 0.05 BTC stays frozen for a2.
  const sellerAssets = data<Rows>(await seller.client.get('/api/v2/spot/account/assets'));
  assert.deepEqual(
    sellerAssets.map((row) => [row.coin, row.available, row.frozen]),
    [
      ['BTC', '0.8', '0.05'],
      ['USDT', '9015.975', '0'],
    ],
  );

  const bought = data<Record<string, unknown>>(
    await buyer.client.get('/api/v3/trade/order-info', { query: { clientOid: 'b1' } }),
  );
  assert.equal(bought.orderStatus, 'filled');
  assert.equal(bought.cumExecQty, '0.15');
  assert.equal(bought.cumExecValue, '9025');
  assert.equal(bought.avgPrice, '60166.66666666');
  assert.deepEqual(bought.feeDetail, [{ feeCoin: 'BTC', fee: '-0.00015' }]);

  const fills = data<{ list: Rows; cursor: string }>(await buyer.client.get('/api/v3/trade/fills'));
  assert.deepEqual(
    fills.list.map((fill) => [fill.execPrice, fill.execQty, fill.execValue, fill.tradeScope]),
    [
      ['60500', '0.05', '3025', 'taker'],
      ['60000', '0.1', '6000', 'taker'],
    ],
  );
  const sellerFills = data<Rows>(
    await seller.client.get('/api/v2/spot/trade/fills', { query: { symbol: 'BTCUSDT' } }),
  );
  assert.deepEqual(
    sellerFills.map((fill) => [
      fill.priceAvg,
      fill.size,
      fill.tradeScope,
      (fill.feeDetail as unknown as Record<string, string>).totalFee,
    ]),
    [
      ['60500', '0.05', 'maker', '-3.025'],
      ['60000', '0.1', 'maker', '-6'],
    ],
  );

  // a2 (0.05 of 0.1 left) is modified to 60400 and then cancelled by clientOid.
  const a2 = batch.successList.find((item) => item.clientOid === 'a2');
  data(
    await seller.client.post('/api/v3/trade/modify-order', {
      body: { orderId: a2?.orderId, price: '60400' },
    }),
  );
  const open = data<Rows>(
    await seller.client.get('/api/v2/spot/trade/unfilled-orders', { query: { symbol: 'BTCUSDT' } }),
  );
  assert.deepEqual(
    open.map((order) => [order.clientOid, order.priceAvg, order.size, order.baseVolume, order.status]),
    [['a2', '60400', '0.1', '0.05', 'partially_filled']],
  );
  data(
    await seller.client.post('/api/v2/spot/trade/cancel-order', {
      body: { symbol: 'BTCUSDT', clientOid: 'a2' },
    }),
  );
  const info = data<Rows>(
    await seller.client.get('/api/v2/spot/trade/orderInfo', { query: { clientOid: 'a2' } }),
  );
  assert.equal(info[0]?.status, 'cancelled');
  const again = await seller.client.post('/api/v3/trade/modify-order', {
    body: { clientOid: 'a1', qty: '0.2' },
  });
  assert.equal(again.body?.code, '25568', 'a filled order cannot be modified');

  const bills = data<Rows>(await seller.client.get('/api/v2/spot/account/bills'));
  assert.deepEqual(
    bills.map((bill) => [bill.businessType, bill.coin, bill.size, bill.fees]),
    [
      ['sell', 'USDT', '3021.975', '-3.025'],
      ['sell', 'BTC', '-0.05', '0'],
      ['sell', 'USDT', '5994', '-6'],
      ['sell', 'BTC', '-0.1', '0'],
      ['deposit', 'BTC', '1', '0'],
    ],
  );
  const history = data<{ list: Rows }>(
    await seller.client.get('/api/v3/trade/history-orders', { query: { category: 'SPOT' } }),
  );
  assert.deepEqual(
    history.list.map((order) => [order.clientOid, order.orderStatus]),
    [
      ['a2', 'cancelled'],
      ['a1', 'filled'],
    ],
  );
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
});

test('margin scenario when a buyer borrows, accrues interest and repays', async (t) => {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const seller = await trader(operator, server.url, 'crossed_margin', [['BTC', '1']]);
  const buyer = await trader(operator, server.url, 'crossed_margin', [['USDT', '1000']]);
  data(
    await seller.client.post('/api/v3/trade/place-order', {
      body: {
        category: 'MARGIN',
        symbol: 'BTCUSDT',
        side: 'sell',
        orderType: 'limit',
        qty: '0.05',
        price: '60000',
      },
    }),
  );
  // 0.03 × 60000 = 1800 USDT against 1000 in the wallet: 800 borrowed automatically.
  data(
    await buyer.client.post('/api/v3/trade/place-order', {
      body: {
        category: 'MARGIN',
        symbol: 'BTCUSDT',
        side: 'buy',
        orderType: 'limit',
        qty: '0.03',
        price: '60000',
      },
    }),
  );
  // Owed: 800 principal + one hour of interest at 0.000126279/day: 800 × 0.000126279 / 24.
  const owed = data<{ repayableCoinList: Rows; maxSelection: string }>(
    await buyer.client.get('/api/v3/account/repayable-coins'),
  );
  assert.deepEqual(owed.repayableCoinList, [{ coin: 'USDT', size: '800.0042093', amount: '800.0042093' }]);
  const nothing = data<{ result: string }>(
    await buyer.client.post('/api/v3/account/repay', { body: { repayableCoinList: ['USDT'] } }),
  );
  assert.equal(nothing.result, 'NO', 'no USDT in the wallet to repay with');
  await operator.deposit(buyer.uid, { coin: 'USDT', amount: '900', wallet: 'crossed_margin' });
  const repaid = data<{ result: string; repayAmount: string }>(
    await buyer.client.post('/api/v3/account/repay', {
      body: { repayableCoinList: ['USDT'], paymentCoinList: ['USDT'] },
    }),
  );
  assert.deepEqual(repaid, { result: 'YES', repayAmount: '800.0042093' });
  const after = data<{ repayableCoinList: Rows }>(await buyer.client.get('/api/v3/account/repayable-coins'));
  assert.deepEqual(after.repayableCoinList, []);
  const account = await operator.getAccount(buyer.uid);
  assert.equal(
    (account.wallets as Record<string, Record<string, { available: string }>>).crossed_margin?.USDT
      ?.available,
    '99.9957907',
  );
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
});
