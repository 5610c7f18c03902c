/**
 * RestClientV2's spot margin methods on a classic account: crossed and isolated assets,
 * borrowing and repaying, the risk ratio and tiers, margin orders and their history, and the
 * records. Each case funds the wallet it uses with 1000 USDT from spot. Some of the SDK's
 * margin methods write their path in plain quotes, so `${marginType}` reaches the server
 * unexpanded: those are out of scope here (ccxt covers the same endpoints).
 *
 * Interest at borrowing: 100 USDT × 0.000126279 ÷ 24 = 0.00052617 (rounded up).
 */
import assert from 'node:assert/strict';
import { dataOf, SYMBOL, type V2Context } from './sdk-context.ts';
import { outOfScope, works, type Entry } from './verdict.ts';

type Cases = Record<string, Entry<V2Context>>;

const UNEXPANDED =
  'the SDK sends this path with `${marginType}` unexpanded (plain quotes instead of a template), so no server can answer it; ccxt reaches the same endpoint (test/conformance/ccxt-margin-cases.ts)';

async function fund({ client }: V2Context, toType: 'crossed_margin' | 'isolated_margin'): Promise<void> {
  const symbol = toType === 'isolated_margin' ? { symbol: SYMBOL } : {};
  dataOf(
    await client.spotTransfer({ fromType: 'spot', toType, amount: '1000', coin: 'USDT', ...symbol } as never),
  );
}

async function borrowHundred(context: V2Context): Promise<string> {
  await fund(context, 'crossed_margin');
  const loan = dataOf(
    await context.client.marginBorrow('crossed', { coin: 'USDT', borrowAmount: '100' } as never),
  );
  return loan.loanId;
}

/** A day back on the server's clock, as the records require a startTime. */
const since = () => String(Date.now() - 86_400_000);

async function restingBuy(context: V2Context): Promise<string> {
  await fund(context, 'crossed_margin');
  const order = {
    symbol: SYMBOL,
    side: 'buy',
    orderType: 'limit',
    force: 'gtc',
    loanType: 'normal',
    price: context.spotAt(0.97),
    baseSize: '0.001',
  } as const;
  return dataOf(await context.client.marginSubmitOrder('crossed', order)).orderId;
}

async function filledBuy(context: V2Context): Promise<string> {
  await fund(context, 'crossed_margin');
  const order = {
    symbol: SYMBOL,
    side: 'buy',
    orderType: 'market',
    force: 'gtc',
    loanType: 'normal',
    quoteSize: '100',
  } as const;
  return dataOf(await context.client.marginSubmitOrder('crossed', order)).orderId;
}

export const SDK_V2_MARGIN_CASES: Cases = {
  getMarginAccountAssets: works(async (context) => {
    await fund(context, 'isolated_margin');
    const rows = dataOf(await context.client.getMarginAccountAssets('isolated'));
    assert.deepEqual(
      rows.map((row) => [row.symbol, row.coin, row.totalAmount, row.borrow]),
      [[SYMBOL, 'USDT', '1000', '0']],
    );
  }),
  marginBorrow: works(async (context) => {
    await fund(context, 'isolated_margin');
    const loan = dataOf(
      await context.client.marginBorrow('isolated', {
        symbol: SYMBOL,
        coin: 'USDT',
        borrowAmount: '100',
      } as never),
    );
    assert.deepEqual([loan.symbol, loan.coin, loan.borrowAmount], [SYMBOL, 'USDT', '100']);
  }),
  marginRepay: works(async (context) => {
    await borrowHundred(context);
    const repaid = dataOf(
      await context.client.marginRepay('crossed', { coin: 'USDT', repayAmount: '40' } as never),
    );
    // 40 pays the 0.00052617 interest, then 39.99947383 of principal: 60.00052617 owed.
    assert.deepEqual([repaid.repayAmount, repaid.remainDebtAmount], ['40', '60.00052617']);
  }),
  getMarginRiskRate: works(async (context) => {
    await borrowHundred(context);
    // 100.00052617 owed × 10 % ÷ (1100 − 100.00052617) = 0.01000006 (rounded up).
    const rows = dataOf(await context.client.getMarginRiskRate('crossed'));
    assert.deepEqual(rows, [{ riskRateRatio: '0.01000006' }]);
  }),
  getMarginTierConfiguration: works(async ({ client }) => {
    const tiers = dataOf(await client.getMarginTierConfiguration('isolated', { symbol: SYMBOL } as never));
    assert.deepEqual(tiers, [
      {
        tier: '1',
        symbol: SYMBOL,
        leverage: '10',
        baseCoin: 'BTC',
        quoteCoin: 'USDT',
        baseMaxBorrowableAmount: '20',
        quoteMaxBorrowableAmount: '1000000',
        maintainMarginRate: '0.05',
        initRate: '0.1',
      },
    ]);
  }),
  getMarginBorrowHistory: works(async (context) => {
    const loanId = await borrowHundred(context);
    const page = dataOf(await context.client.getMarginBorrowHistory('crossed', { startTime: since() }));
    assert.deepEqual(
      page.resultList.map((row) => [row.loanId, row.coin, row.borrowAmount, row.borrowType]),
      [[loanId, 'USDT', '100', 'manual']],
    );
  }),
  getMarginRepayHistory: works(async (context) => {
    await borrowHundred(context);
    dataOf(await context.client.marginRepay('crossed', { coin: 'USDT', repayAmount: '40' } as never));
    const page = dataOf(await context.client.getMarginRepayHistory('crossed', { startTime: since() }));
    assert.deepEqual(
      page.resultList.map((row) => [row.repayAmount, row.repayInterest, row.repayPrincipal]),
      [['40', '0.00052617', '39.99947383']],
    );
  }),
  getMarginInterestHistory: works(async (context) => {
    await borrowHundred(context);
    const page = dataOf(await context.client.getMarginInterestHistory('crossed', { startTime: since() }));
    assert.deepEqual(
      page.resultList.map((row) => [row.interestCoin, row.interestAmount, row.interstType]),
      [['USDT', '0.00052617', 'first']],
    );
  }),
  getMarginLiquidationHistory: works(async (context) => {
    await borrowHundred(context);
    const page = dataOf(await context.client.getMarginLiquidationHistory('crossed', { startTime: since() }));
    assert.deepEqual(page.resultList, []);
  }),
  getMarginFinancialHistory: works(async (context) => {
    await borrowHundred(context);
    const page = dataOf(await context.client.getMarginFinancialHistory('crossed', { startTime: since() }));
    assert.deepEqual(
      page.resultList.map((row) => [row.marginType, row.amount]),
      [
        ['interest', '0'],
        ['borrow', '100'],
        ['transfer_in', '1000'],
      ],
    );
  }),
  marginSubmitOrder: works(async (context) => {
    const id = await restingBuy(context);
    assert.match(id, /^\d+$/);
  }),
  marginBatchSubmitOrders: works(async (context) => {
    await fund(context, 'crossed_margin');
    const item = {
      side: 'buy',
      orderType: 'limit',
      force: 'gtc',
      loanType: 'normal',
      price: context.spotAt(0.97),
    } as const;
    const placed = dataOf(
      await context.client.marginBatchSubmitOrders('crossed', {
        symbol: SYMBOL,
        orderList: [
          { ...item, baseSize: '0.001' },
          { ...item, baseSize: '0.002' },
        ],
      }),
    );
    assert.equal(placed.successList.length, 2);
  }),
  marginCancelOrder: works(async (context) => {
    const orderId = await restingBuy(context);
    const cancelled = dataOf(await context.client.marginCancelOrder('crossed', { symbol: SYMBOL, orderId }));
    assert.equal(cancelled.orderId, orderId);
  }),
  getMarginOpenOrders: works(async (context) => {
    const orderId = await restingBuy(context);
    const open = dataOf(
      await context.client.getMarginOpenOrders('crossed', { symbol: SYMBOL, startTime: since() }),
    );
    assert.deepEqual(
      open.orderList.map((row) => [row.orderId, row.status, row.loanType]),
      [[orderId, 'live', 'normal']],
    );
  }),
  getMarginHistoricOrders: works(async (context) => {
    const orderId = await filledBuy(context);
    const history = dataOf(
      await context.client.getMarginHistoricOrders('crossed', { symbol: SYMBOL, startTime: since() }),
    );
    assert.deepEqual(
      history.orderList.map((row) => [row.orderId, row.status, row.quoteSize]),
      [[orderId, 'filled', '100']],
    );
  }),
  getMarginHistoricOrderFills: works(async (context) => {
    const orderId = await filledBuy(context);
    const fills = dataOf(
      await context.client.getMarginHistoricOrderFills('crossed', { symbol: SYMBOL, startTime: since() }),
    );
    assert.ok(fills.fills.length > 0 && fills.fills.every((fill) => fill.orderId === orderId));
  }),
  getMarginMaxBorrowable: outOfScope(UNEXPANDED),
  getMarginMaxTransferable: outOfScope(UNEXPANDED),
  getMarginInterestRateAndMaxBorrowable: outOfScope(UNEXPANDED),
  marginFlashRepay: outOfScope(UNEXPANDED),
  getMarginFlashRepayResult: outOfScope(UNEXPANDED),
  marginBatchCancelOrders: outOfScope(UNEXPANDED),
  getMarginLiquidationOrders: works(async (context) => {
    await borrowHundred(context);
    // No liquidation yet: the venue's empty page (the orders are in test/scenarios/margin-v2).
    const page = dataOf(await context.client.getMarginLiquidationOrders('crossed', { startTime: since() }));
    assert.deepEqual(page, { resultList: [], idLessThan: '' });
  }),
};
