/**
 * ccxt's spot margin methods on a classic account: crossed and isolated borrowing, repaying,
 * rates, interest, tiers, and margin orders with their history. Each case funds the margin
 * wallet it uses by a transfer from spot (1000 USDT; 0.01 BTC where it sells).
 *
 * Interest (docs/trading.md, "Margin"): one hour is charged at borrowing,
 *   100 USDT × 0.000126279 ÷ 24 = 0.000526162…, rounded up to 0.00052617.
 */
import assert from 'node:assert/strict';
import type { CcxtContext } from './ccxt-context.ts';
import { SPOT } from './harness.ts';

const CROSS = { marginMode: 'cross' } as const;
const ISOLATED = { marginMode: 'isolated' } as const;

async function fundCross({ exchange }: CcxtContext, btc = 0): Promise<void> {
  await exchange.transfer('USDT', 1000, 'spot', 'cross');
  if (btc > 0) await exchange.transfer('BTC', btc, 'spot', 'cross');
}

async function fundIsolated({ exchange }: CcxtContext): Promise<void> {
  await exchange.transfer('USDT', 1000, 'spot', 'isolated', { symbol: SPOT });
}

async function marginSell(context: CcxtContext): Promise<string> {
  await fundCross(context, 0.01);
  const order = await context.exchange.createOrder(SPOT, 'market', 'sell', 0.001, undefined, CROSS);
  return String(order.id);
}

const ETH = 'ETH/USDT';

export const CCXT_MARGIN_CASES = {
  /**
   * An isolated ETHUSDT wallet at 10x (100 USDT and 800 borrowed, all spent on ETH) whose ETH
   * index is then set 10 % lower: assets ≈ 0.9 × 880 + 20 = 812 against 800.03 owed, risk
   * ≈ 800 × 5 % ÷ 12 ≈ 3.3 ≥ 1, so the wallet is liquidated through the ETHUSDT margin book in
   * the command that sets the SPOT index, and only down to risk 0.5 (docs/trading.md): about
   * (40 − 6) ÷ 0.04945 ≈ 690 USDT of ETH is sold, so some debt (≈ 110 USDT) remains.
   */
  fetchMyLiquidations: async (context: CcxtContext) => {
    const { exchange } = context;
    await exchange.transfer('USDT', 100, 'spot', 'isolated', { symbol: ETH });
    await exchange.borrowIsolatedMargin(ETH, 'USDT', 800);
    const last = (await exchange.fetchTicker(ETH)).last ?? 0;
    await exchange.createOrder(ETH, 'market', 'buy', 880 / last, last, ISOLATED);
    assert.deepEqual(await exchange.fetchMyLiquidations(ETH, undefined, undefined, ISOLATED), []);
    const lower = (last * 0.9).toFixed(2);
    for (const category of ['MARGIN', 'SPOT'])
      await context.operator.setPrice({ category, symbol: 'ETHUSDT', indexPrice: lower });
    // The liquidation happened in the operator's command, and the history read waits for the
    // projector to write it: the first read has it (a bot may poll; it need not).
    const liquidations = await exchange.fetchMyLiquidations(ETH, undefined, undefined, ISOLATED);
    assert.deepEqual(
      liquidations.map((one) => one.symbol),
      [ETH],
    );
    const isolated = await exchange.fetchBalance({ ...ISOLATED, symbol: 'ETHUSDT' });
    const debt = (isolated.USDT as { debt?: number } | undefined)?.debt ?? 0;
    assert.ok(debt > 0 && debt < 400, `debt ${debt} after a liquidation to risk 0.5`);
  },
  fetchMarginBalance: async (context: CcxtContext) => {
    await fundCross(context);
    const balance = await context.exchange.fetchBalance(CROSS);
    assert.equal(balance.USDT?.total, 1000);
  },
  borrowCrossMargin: async (context: CcxtContext) => {
    await fundCross(context);
    const loan = await context.exchange.borrowCrossMargin('USDT', 100);
    assert.equal(loan.amount, 100);
    const balance = await context.exchange.fetchBalance(CROSS);
    // debt = 100 principal + 0.00052617 first-hour interest
    assert.equal((balance.USDT as { debt?: number } | undefined)?.debt, 100.00052617);
    assert.equal(balance.USDT?.total, 1100);
  },
  repayCrossMargin: async (context: CcxtContext) => {
    await fundCross(context);
    await context.exchange.borrowCrossMargin('USDT', 100);
    const repaid = await context.exchange.repayCrossMargin('USDT', 50);
    assert.equal(repaid.amount, 50);
    // 50 pays the 0.00052617 interest first, then 49.99947383 of principal.
    const info = repaid.info as { remainDebtAmount: string };
    assert.equal(info.remainDebtAmount, '50.00052617');
  },
  borrowIsolatedMargin: async (context: CcxtContext) => {
    await fundIsolated(context);
    const loan = await context.exchange.borrowIsolatedMargin(SPOT, 'USDT', 100);
    assert.equal(loan.amount, 100);
    assert.equal(loan.symbol, SPOT);
    // The crossed wallet is untouched.
    const cross = await context.exchange.fetchBalance(CROSS);
    assert.equal(cross.USDT?.total ?? 0, 0);
    const isolated = await context.exchange.fetchBalance({ ...ISOLATED, symbol: 'BTCUSDT' });
    assert.equal(isolated.USDT?.total, 1100);
  },
  repayIsolatedMargin: async (context: CcxtContext) => {
    await fundIsolated(context);
    await context.exchange.borrowIsolatedMargin(SPOT, 'USDT', 100);
    const repaid = await context.exchange.repayIsolatedMargin(SPOT, 'USDT', 200);
    // Only what is owed is taken: 100.00052617.
    assert.equal(repaid.amount, 100.00052617);
    assert.equal((repaid.info as { remainDebtAmount: string }).remainDebtAmount, '0');
  },
  fetchCrossBorrowRate: async ({ exchange }: CcxtContext) => {
    const rate = await exchange.fetchCrossBorrowRate('USDT');
    assert.equal(rate.rate, 0.000126279);
  },
  fetchIsolatedBorrowRate: async ({ exchange }: CcxtContext) => {
    const rate = await exchange.fetchIsolatedBorrowRate(SPOT);
    assert.deepEqual([rate.baseRate, rate.quoteRate], [0.00003, 0.000126279]);
  },
  fetchBorrowInterest: async (context: CcxtContext) => {
    await fundCross(context);
    await context.exchange.borrowCrossMargin('USDT', 100);
    const interest = await context.exchange.fetchBorrowInterest('USDT');
    assert.deepEqual(
      interest.map((row) => [row.currency, row.interest, row.marginMode]),
      [['USDT', 0.00052617, 'cross']],
    );
  },
  fetchMarketLeverageTiers: async ({ exchange }: CcxtContext) => {
    const tiers = (await exchange.fetchMarketLeverageTiers(SPOT, ISOLATED)) as unknown as Record<
      string,
      unknown
    >;
    assert.ok(Object.keys(tiers).length > 0, JSON.stringify(tiers));
  },
  createOrder: async (context: CcxtContext) => {
    await fundCross(context);
    const order = await context.exchange.createOrder(
      SPOT,
      'limit',
      'buy',
      0.001,
      context.at(SPOT, 0.97),
      CROSS,
    );
    const open = await context.exchange.fetchOpenOrders(SPOT, undefined, undefined, CROSS);
    assert.deepEqual(
      open.map((one) => one.id),
      [order.id],
    );
    // The order holds crossed USDT only; the spot wallet is not touched by it.
    const isolated = await context.exchange.fetchOpenOrders(SPOT, undefined, undefined, ISOLATED);
    assert.equal(isolated.length, 0);
  },
  createOrders: async (context: CcxtContext) => {
    await fundCross(context);
    const price = context.at(SPOT, 0.97);
    const orders = await context.exchange.createOrders([
      { symbol: SPOT, type: 'limit', side: 'buy', amount: 0.001, price, params: CROSS },
      { symbol: SPOT, type: 'limit', side: 'buy', amount: 0.002, price, params: CROSS },
    ]);
    assert.equal(orders.filter((order) => order.id).length, 2);
  },
  cancelOrder: async (context: CcxtContext) => {
    await fundCross(context);
    const order = await context.exchange.createOrder(
      SPOT,
      'limit',
      'buy',
      0.001,
      context.at(SPOT, 0.97),
      CROSS,
    );
    await context.exchange.cancelOrder(String(order.id), SPOT, CROSS);
    assert.equal((await context.exchange.fetchOpenOrders(SPOT, undefined, undefined, CROSS)).length, 0);
  },
  cancelOrders: async (context: CcxtContext) => {
    await fundCross(context);
    const price = context.at(SPOT, 0.97);
    const one = await context.exchange.createOrder(SPOT, 'limit', 'buy', 0.001, price, CROSS);
    const two = await context.exchange.createOrder(SPOT, 'limit', 'buy', 0.001, price, CROSS);
    await context.exchange.cancelOrders([String(one.id), String(two.id)], SPOT, CROSS);
    assert.equal((await context.exchange.fetchOpenOrders(SPOT, undefined, undefined, CROSS)).length, 0);
  },
  fetchClosedOrders: async (context: CcxtContext) => {
    const id = await marginSell(context);
    const closed = await context.exchange.fetchClosedOrders(SPOT, undefined, undefined, CROSS);
    assert.deepEqual(
      closed.map((order) => [order.id, order.status, order.filled]),
      [[id, 'closed', 0.001]],
    );
  },
  fetchMyTrades: async (context: CcxtContext) => {
    const id = await marginSell(context);
    const trades = await context.exchange.fetchMyTrades(SPOT, undefined, undefined, CROSS);
    assert.ok(trades.length > 0 && trades.every((trade) => trade.order === id), JSON.stringify(trades));
    assert.equal(
      trades.reduce((sum, trade) => sum + (trade.amount ?? 0), 0),
      0.001,
    );
  },
};
