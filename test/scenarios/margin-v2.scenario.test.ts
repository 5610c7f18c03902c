/**
 * Spot margin through the v2 crossed and isolated routes over real HTTP. Every figure was
 * computed by hand from the default catalogue (BTCUSDT: fee 0.1 % on what is received; margin
 * leverage 3 crossed, 10 isolated) and the rates of docs/trading.md ("Margin"):
 *   USDT interest per hour = principal × 0.000126279 ÷ 24, rounded up to 8 decimals.
 * The index of BTCUSDT (spot and margin) is set to 60000 first, so BTC has a USDT value.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';
import { data } from '../support/scenario.ts';

type Rows = Record<string, string>[];
type Page = { resultList: Rows; maxId: string; minId: string };

const CROSSED = '/api/v2/margin/crossed';
const ISOLATED = '/api/v2/margin/isolated';

async function setIndex(operator: OperatorClient, price: string): Promise<void> {
  for (const category of ['SPOT', 'MARGIN'])
    await operator.setPrice({ category, symbol: 'BTCUSDT', indexPrice: price });
}

async function trader(server: TestServer, operator: OperatorClient, funds: [string, string, string][]) {
  const { uid } = await operator.createAccount();
  for (const [wallet, coin, amount] of funds) await operator.deposit(uid, { coin, amount, wallet });
  const key = await operator.createApiKey(uid);
  return { uid, client: new SigningClient(server.url, key) };
}

async function setUp(t: Parameters<typeof serverFor>[0], env: Record<string, string> = {}) {
  const server = await serverFor(t, { env });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  await setIndex(operator, '60000');
  // Records are asked for from a day before the server's clock (the venue's 90-day window).
  const SINCE = { startTime: String(Number((await operator.getClock()).nowMs) - 86_400_000) };
  // The counterparty: 1 BTC and 10000 USDT in its crossed wallet, resting orders placed below.
  const maker = await trader(server, operator, [
    ['crossed_margin', 'BTC', '1'],
    ['crossed_margin', 'USDT', '10000'],
  ]);
  return { server, operator, maker, SINCE };
}

type Client = SigningClient;

async function place(client: Client, path: string, order: Record<string, string>) {
  const response = await client.post(`${path}/place-order`, {
    body: { symbol: 'BTCUSDT', orderType: 'limit', force: 'gtc', loanType: 'normal', ...order },
  });
  return data<{ orderId: string }>(response);
}

async function assets(client: Client, path: string, query: Record<string, string> = {}) {
  const rows = data<Rows>(await client.get(`${path}/account/assets`, { query }));
  return rows.map((row) => [row.coin, row.available, row.borrow, row.interest]);
}

test('isolated margin when an account borrows, buys, sells with autoRepay ends owing nothing, its crossed wallet untouched', async (t) => {
  const { server, operator, maker, SINCE } = await setUp(t);
  const buyer = await trader(server, operator, [['spot', 'USDT', '1000']]);
  data(
    await buyer.client.post('/api/v2/spot/wallet/transfer', {
      body: { fromType: 'spot', toType: 'isolated_margin', amount: '1000', coin: 'USDT', symbol: 'BTCUSDT' },
    }),
  );
  // Equity 1000 USDT × (10 − 1) = 9000 USDT, or 9000 ÷ 60000 = 0.15 BTC.
  const most = data<Record<string, string>>(
    await buyer.client.get(`${ISOLATED}/account/max-borrowable-amount`, { query: { symbol: 'BTCUSDT' } }),
  );
  assert.deepEqual([most.baseCoinMaxBorrowAmount, most.quoteCoinMaxBorrowAmount], ['0.15', '9000']);
  const loan = data<Record<string, string>>(
    await buyer.client.post(`${ISOLATED}/account/borrow`, {
      body: { symbol: 'BTCUSDT', coin: 'USDT', borrowAmount: '2000' },
    }),
  );
  assert.equal(loan.borrowAmount, '2000');
  // First hour: 2000 × 0.000126279 ÷ 24 = 0.01052325.
  assert.deepEqual(await assets(buyer.client, ISOLATED), [['USDT', '3000', '2000', '0.01052325']]);

  await place(maker.client, CROSSED, { side: 'sell', price: '60000', baseSize: '0.05' });
  // 0.05 × 60000 = 3000 USDT, all of the wallet; receives 0.05 − 0.00005 fee = 0.04995 BTC.
  await place(buyer.client, ISOLATED, { side: 'buy', price: '60000', baseSize: '0.05' });
  await place(maker.client, CROSSED, { side: 'buy', price: '61000', baseSize: '0.04995' });
  // 0.04995 × 61000 = 3046.95 USDT less 3.04695 fee = 3043.90305; autoRepay pays the
  // 2000.01052325 owed at once: 1043.89252675 left.
  await place(buyer.client, ISOLATED, {
    side: 'sell',
    price: '61000',
    baseSize: '0.04995',
    loanType: 'autoRepay',
  });
  assert.deepEqual(await assets(buyer.client, ISOLATED), [
    ['BTC', '0', '0', '0'],
    ['USDT', '1043.89252675', '0', '0'],
  ]);
  assert.deepEqual(await assets(buyer.client, CROSSED), []);

  const repays = data<Page>(await buyer.client.get(`${ISOLATED}/repay-history`, { query: SINCE }));
  assert.deepEqual(
    repays.resultList.map((row) => [
      row.symbol,
      row.repayType,
      row.repayAmount,
      row.repayInterest,
      row.repayPrincipal,
    ]),
    [['BTCUSDT', 'auto', '2000.01052325', '0.01052325', '2000']],
  );
  const borrows = data<Page>(await buyer.client.get(`${ISOLATED}/borrow-history`, { query: SINCE }));
  assert.deepEqual(
    borrows.resultList.map((row) => [row.loanId, row.borrowType, row.borrowAmount]),
    [[loan.loanId, 'manual', '2000']],
  );
  const open = data<{ orderList: Rows }>(
    await buyer.client.get(`${ISOLATED}/history-orders`, { query: { symbol: 'BTCUSDT', ...SINCE } }),
  );
  assert.deepEqual(
    open.orderList.map((row) => [row.side, row.status, row.loanType, row.size, row.amount]),
    [
      ['sell', 'filled', 'autoRepay', '0.04995', '3046.95'],
      ['buy', 'filled', 'normal', '0.05', '3000'],
    ],
  );
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
});

test('crossed margin when an autoLoanAndRepay buy borrows and its sell repays ends owing nothing', async (t) => {
  const { server, operator, maker, SINCE } = await setUp(t);
  const buyer = await trader(server, operator, [['crossed_margin', 'USDT', '1000']]);
  // loanType normal may not borrow: 1800 USDT against 1000 is refused.
  const refused = await buyer.client.post(`${CROSSED}/place-order`, {
    body: {
      symbol: 'BTCUSDT',
      orderType: 'limit',
      force: 'gtc',
      loanType: 'normal',
      side: 'buy',
      price: '60000',
      baseSize: '0.03',
    },
  });
  assert.equal(refused.body?.code, '43012');
  await place(maker.client, CROSSED, { side: 'sell', price: '60000', baseSize: '0.03' });
  // 0.03 × 60000 = 1800 against 1000: 800 borrowed, 800 × 0.000126279 ÷ 24 = 0.0042093.
  await place(buyer.client, CROSSED, {
    side: 'buy',
    price: '60000',
    baseSize: '0.03',
    loanType: 'autoLoanAndRepay',
  });
  assert.deepEqual(await assets(buyer.client, CROSSED), [
    ['BTC', '0.02997', '0', '0'],
    ['USDT', '0', '800', '0.0042093'],
  ]);
  await place(maker.client, CROSSED, { side: 'buy', price: '60000', baseSize: '0.02997' });
  // 0.02997 × 60000 = 1798.2 less 1.7982 fee = 1796.4018; 800.0042093 repaid: 996.3975907.
  await place(buyer.client, CROSSED, {
    side: 'sell',
    price: '60000',
    baseSize: '0.02997',
    loanType: 'autoLoanAndRepay',
  });
  assert.deepEqual(await assets(buyer.client, CROSSED), [
    ['BTC', '0', '0', '0'],
    ['USDT', '996.3975907', '0', '0'],
  ]);
  const borrows = data<Page>(await buyer.client.get(`${CROSSED}/borrow-history`, { query: SINCE }));
  assert.deepEqual(
    borrows.resultList.map((row) => [row.coin, row.borrowType, row.borrowAmount, row.symbol]),
    [['USDT', 'auto', '800', undefined]],
  );
  const records = data<Page>(
    await buyer.client.get(`${CROSSED}/financial-records`, { query: { ...SINCE, marginType: 'repay' } }),
  );
  assert.deepEqual(
    records.resultList.map((row) => [row.coin, row.amount, row.marginType]),
    [['USDT', '-800.0042093', 'repay']],
  );
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
});

test('crossed interest when a loan is held over simulated hours is charged once per hour started', async (t) => {
  const { server, operator, SINCE } = await setUp(t, { BOURSE_CLOCK: 'simulated' });
  const borrower = await trader(server, operator, [['crossed_margin', 'USDT', '1000']]);
  const HOUR = 3_600_000;
  // Start a minute past an hour, so every later step crosses exactly one hour boundary.
  const nowMs = Number((await operator.getClock()).nowMs);
  await operator.advanceClock(HOUR - (nowMs % HOUR) + 60_000);
  data(
    await borrower.client.post(`${CROSSED}/account/borrow`, { body: { coin: 'USDT', borrowAmount: '1000' } }),
  );
  for (let hour = 0; hour < 3; hour += 1) await operator.advanceClock(HOUR);
  // 1000 × 0.000126279 ÷ 24 = 0.00526162.5 → 0.00526163 an hour; 1 at borrowing + 3 = 0.02104652.
  assert.deepEqual(await assets(borrower.client, CROSSED), [['USDT', '2000', '1000', '0.02104652']]);
  const interest = data<Page>(await borrower.client.get(`${CROSSED}/interest-history`, { query: SINCE }));
  assert.deepEqual(
    interest.resultList.map((row) => [row.interstType, row.interestAmount, row.dailyInterestRate]),
    [
      ['scheduled', '0.00526163', '0.000126279'],
      ['scheduled', '0.00526163', '0.000126279'],
      ['scheduled', '0.00526163', '0.000126279'],
      ['first', '0.00526163', '0.000126279'],
    ],
  );
  // Repaying 500: the 0.02104652 of interest first, then 499.97895348 of principal.
  const repaid = data<Record<string, string>>(
    await borrower.client.post(`${CROSSED}/account/repay`, { body: { coin: 'USDT', repayAmount: '500' } }),
  );
  assert.deepEqual([repaid.repayAmount, repaid.remainDebtAmount], ['500', '500.02104652']);
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
});

test('isolated liquidation when the index falls sells through the book only down to the safe ratio and leaves the crossed wallet untouched', async (t) => {
  const { server, operator, maker, SINCE } = await setUp(t);
  const trader1 = await trader(server, operator, [['spot', 'USDT', '2000']]);
  for (const [toType, symbol] of [
    ['crossed_margin', undefined],
    ['isolated_margin', 'BTCUSDT'],
  ] as const) {
    data(
      await trader1.client.post('/api/v2/spot/wallet/transfer', {
        body: { fromType: 'spot', toType, amount: '1000', coin: 'USDT', ...(symbol ? { symbol } : {}) },
      }),
    );
  }
  data(
    await trader1.client.post(`${ISOLATED}/account/borrow`, {
      body: { symbol: 'BTCUSDT', coin: 'USDT', borrowAmount: '4000' },
    }),
  );
  await place(maker.client, CROSSED, { side: 'sell', price: '60000', baseSize: '0.08' });
  // 0.08 × 60000 = 4800 of the 5000: 200 USDT and 0.08 − 0.00008 = 0.07992 BTC remain.
  await place(trader1.client, ISOLATED, { side: 'buy', price: '60000', baseSize: '0.08' });
  await place(maker.client, CROSSED, { side: 'buy', price: '50000', baseSize: '0.07992' });

  // At 50000: assets 0.07992 × 50000 + 200 = 4196; debt 4000 + 0.0210465 = 4000.0210465;
  // risk = 4000.0210465 × 5 % ÷ (4196 − 4000.0210465) = 1.02052312 ≥ 1: liquidated.
  await setIndex(operator, '50000');
  // Liquidation (docs/trading.md, "Liquidation"): the 200 USDT repays first (interest
  // 0.0210465, then 199.9789535 of principal): debt 3800.0210465, assets 3996, equity
  // 195.9789535. Sold to bring the ratio to 0.5 with m 5 %, fee f 0.1 %:
  //   x = (3800.0210465 × 0.05 − 0.5 × 195.9789535) ÷ (0.999 × 0.05 − 0.5 × 0.001)
  //     = 92.011575575 ÷ 0.04945 = 1860.6992027… USDT = 0.037213984… BTC → 0.037214 (lots up).
  // 0.037214 × 50000 = 1860.7, less 1.8607 fee = 1858.8393 repaid: 1941.1817465 owed,
  // 0.07992 − 0.037214 = 0.042706 BTC kept. Ratio after: 1941.1817465 × 0.05 ÷ (2135.3 −
  // 1941.1817465) = 0.4999998 ≤ 0.5, so nothing more is sold.
  assert.deepEqual(await assets(trader1.client, ISOLATED), [
    ['BTC', '0.042706', '0', '0'],
    ['USDT', '0', '1941.1817465', '0'],
  ]);
  assert.deepEqual(await assets(trader1.client, CROSSED), [['USDT', '1000', '0', '0']]);
  const liquidations = data<Page>(
    await trader1.client.get(`${ISOLATED}/liquidation-history`, { query: SINCE }),
  );
  assert.deepEqual(
    liquidations.resultList.map((row) => [
      row.symbol,
      row.liqRiskRatio,
      row.totalAssets,
      row.totalDebt,
      row.liqFee,
    ]),
    [['BTCUSDT', '1.02052312', '4196', '4000.0210465', '0']],
  );
  const crossed = data<Page>(await trader1.client.get(`${CROSSED}/liquidation-history`, { query: SINCE }));
  assert.deepEqual(crossed.resultList, []);
  // The liquidation's order, as liquidation-order lists it (the crossed wallet has none).
  const orders = data<{ resultList: Rows; idLessThan: string }>(
    await trader1.client.get(`${ISOLATED}/liquidation-order`, { query: { ...SINCE, symbol: 'BTCUSDT' } }),
  );
  assert.deepEqual(
    orders.resultList.map((row) => [
      row.symbol,
      row.orderType,
      row.side,
      row.priceAvg,
      row.fillSize,
      row.size,
      row.amount,
    ]),
    [['BTCUSDT', 'market', 'liquidation-sell', '50000', '0.037214', '0.037214', '1860.7']],
  );
  assert.equal(orders.idLessThan, orders.resultList[0]?.orderId);
  const crossedOrders = data<{ resultList: Rows }>(
    await trader1.client.get(`${CROSSED}/liquidation-order`, { query: SINCE }),
  );
  assert.deepEqual(crossedOrders.resultList, []);
  const swaps = data<{ resultList: Rows }>(
    await trader1.client.get(`${ISOLATED}/liquidation-order`, { query: { type: 'swap', fromCoin: 'BTC' } }),
  );
  assert.deepEqual(swaps.resultList, []);
  const misplaced = await trader1.client.get(`${ISOLATED}/liquidation-order`, { query: { fromCoin: 'BTC' } });
  assert.equal(misplaced.body?.code, '40020');
  const repays = data<Page>(await trader1.client.get(`${ISOLATED}/repay-history`, { query: SINCE }));
  assert.deepEqual(
    repays.resultList.map((row) => [row.repayType, row.repayAmount]),
    [
      ['liquidation', '1858.8393'],
      ['liquidation', '200'],
    ],
  );
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
});

test('v3 repay when paying USDT debt with BTC converts at the index price through the convert house', async (t) => {
  const { server, operator, maker } = await setUp(t);
  const buyer = await trader(server, operator, [
    ['crossed_margin', 'USDT', '1000'],
    ['crossed_margin', 'BTC', '0.1'],
  ]);
  await place(maker.client, CROSSED, { side: 'sell', price: '60000', baseSize: '0.03' });
  // 1800 USDT against 1000: 800 borrowed + 0.0042093 first-hour interest; +0.02997 BTC.
  await place(buyer.client, CROSSED, { side: 'buy', price: '60000', baseSize: '0.03', loanType: 'autoLoan' });
  const repaid = data<{ result: string; repayAmount: string }>(
    await buyer.client.post('/api/v3/account/repay', {
      body: { repayableCoinList: ['USDT'], paymentCoinList: ['BTC'] },
    }),
  );
  assert.deepEqual(repaid, { result: 'YES', repayAmount: '800.0042093' });
  // No USDT of its own: ⌈800.0042093 ÷ 60000⌉ = 0.01333341 BTC (rounded up, against the
  // payer) converts to 800.0046, capped at the 800.0042093 owed. BTC 0.12997 − 0.01333341.
  assert.deepEqual(await assets(buyer.client, CROSSED), [
    ['BTC', '0.11663659', '0', '0'],
    ['USDT', '0', '0', '0'],
  ]);
  const unknown = await buyer.client.post('/api/v3/account/repay', {
    body: { repayableCoinList: ['USDT'], paymentCoinList: ['NOPE'] },
  });
  assert.notEqual(unknown.body?.code, '00000');
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
});
