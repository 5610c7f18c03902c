/**
 * ccxt's account methods: balances and ledger, positions and their settings, transfers, the
 * wallet (deposits, withdrawals, addresses), fees, convert and borrowing.
 */
import assert from 'node:assert/strict';
import type { CcxtContext } from './ccxt-context.ts';
import { SPOT, SWAP } from './harness.ts';
import { outOfScope, pending, SPOT_MARGIN, works, type Entry } from './verdict.ts';

type Cases = Record<string, Entry<CcxtContext>>;

const WALLET = 'deposit and withdrawal records, deposit addresses and withdrawals are being added';
const FEES = 'the v2 common and v3 account fee-rate endpoints are being added';
const CONVERT = 'convert (currencies, quotes, trades, records) is being added';

/** An isolated long of 0.01 BTC in hedge mode (the venue's default), for margin changes. */
async function isolatedLong({ exchange }: CcxtContext): Promise<void> {
  await exchange.setMarginMode('isolated', SWAP);
  await exchange.createOrder(SWAP, 'market', 'buy', 0.01, undefined, {
    hedged: true,
    marginMode: 'isolated',
  });
}

async function isolatedMargin(context: CcxtContext): Promise<number> {
  const [position] = await context.exchange.fetchPositions([SWAP]);
  assert.equal(position?.marginMode, 'isolated');
  return position?.collateral ?? position?.initialMargin ?? 0;
}

export const CCXT_ACCOUNT_CASES: Cases = {
  fetchBalance: works(async ({ exchange }) => {
    const balance = await exchange.fetchBalance();
    assert.equal(balance.USDT?.free, 100000);
    assert.equal(balance.BTC?.total, 2);
  }),
  fetchLedger: works(async (context) => {
    await context.exchange.createOrder(SPOT, 'limit', 'buy', 0.001, context.at(SPOT, 1.005));
    const ledger = await context.exchange.fetchLedger('USDT');
    assert.ok(ledger.length > 0, 'entries');
    assert.ok(
      ledger.every((entry) => entry.currency === 'USDT'),
      'USDT entries',
    );
  }),
  fetchPositions: works(async (context) => {
    await context.openLong();
    const positions = await context.exchange.fetchPositions([SWAP]);
    assert.deepEqual(
      positions.map((position) => [position.symbol, position.side, position.contracts]),
      [[SWAP, 'long', 0.01]],
    );
  }),
  fetchPosition: works(async (context) => {
    await context.openLong();
    const position = await context.exchange.fetchPosition(SWAP);
    assert.deepEqual([position.side, position.contracts], ['long', 0.01]);
  }),
  fetchPositionsHistory: works(async (context) => {
    await context.openLong();
    await context.exchange.createOrder(SWAP, 'market', 'sell', 0.01, undefined, { reduceOnly: true });
    const history = await context.exchange.fetchPositionsHistory([SWAP]);
    assert.equal(history.length, 1);
    assert.equal(history[0]?.symbol, SWAP);
  }),
  fetchFundingHistory: works(async (context) => {
    // Funding settles every eight hours: a new position has paid none yet.
    await context.openLong();
    const history = await context.exchange.fetchFundingHistory(SWAP);
    assert.ok(Array.isArray(history));
    for (const entry of history) assert.ok(entry.symbol === SWAP && Number.isFinite(entry.amount));
  }),
  setLeverage: works(async ({ exchange }) => {
    await exchange.setLeverage(7, SWAP);
    const leverage = await exchange.fetchLeverage(SWAP);
    assert.equal(leverage.longLeverage, 7);
  }),
  fetchLeverage: works(async ({ exchange }) => {
    const leverage = await exchange.fetchLeverage(SWAP);
    assert.equal(leverage.marginMode, 'cross');
    assert.ok((leverage.longLeverage ?? 0) >= 1, 'a leverage');
  }),
  setMarginMode: works(async ({ exchange }) => {
    await exchange.setMarginMode('isolated', SWAP);
    assert.equal((await exchange.fetchMarginMode(SWAP)).marginMode, 'isolated');
  }),
  fetchMarginMode: works(async ({ exchange }) => {
    assert.equal((await exchange.fetchMarginMode(SWAP)).marginMode, 'cross');
  }),
  setPositionMode: works(async ({ exchange }) => {
    await exchange.setPositionMode(false, SWAP);
    await exchange.createOrder(SWAP, 'market', 'buy', 0.01);
    const [position] = await exchange.fetchPositions([SWAP]);
    assert.equal(position?.hedged, false);
  }),
  addMargin: works(async (context) => {
    await isolatedLong(context);
    const before = await isolatedMargin(context);
    await context.exchange.addMargin(SWAP, 10, { holdSide: 'long' });
    assert.equal(Math.round((await isolatedMargin(context)) - before), 10);
  }),
  reduceMargin: works(async (context) => {
    await isolatedLong(context);
    await context.exchange.addMargin(SWAP, 10, { holdSide: 'long' });
    const before = await isolatedMargin(context);
    await context.exchange.reduceMargin(SWAP, -5, { holdSide: 'long' });
    assert.equal(Math.round(before - (await isolatedMargin(context))), 5);
  }),
  transfer: {
    classic: works(async ({ exchange }) => {
      const transfer = await exchange.transfer('USDT', 25, 'spot', 'swap');
      assert.match(String(transfer.id), /^\d+$/);
      const balance = await exchange.fetchBalance({ type: 'swap' });
      assert.equal(balance.USDT?.total, 100025);
    }),
    unified: pending('i20b', "the unified account's funding wallet and its transfers are being added"),
  },
  fetchTransfers: works(async ({ exchange, kind }) => {
    if (kind === 'classic') await exchange.transfer('USDT', 25, 'spot', 'swap');
    const transfers = await exchange.fetchTransfers('USDT');
    assert.ok(Array.isArray(transfers));
    if (kind === 'classic') assert.equal(transfers[0]?.amount, 25);
  }),
  fetchTradingFees: {
    classic: works(async ({ exchange }) => {
      const fees = await exchange.fetchTradingFees();
      assert.equal(fees[SPOT]?.taker, 0.001);
    }),
    unified: pending('i20b', FEES),
  },
  fetchTradingFee: pending('i20b', FEES),
  fetchDeposits: pending('i20b', WALLET),
  fetchDeposit: pending('i20b', WALLET),
  fetchWithdrawals: pending('i20b', WALLET),
  fetchWithdrawal: pending('i20b', WALLET),
  withdraw: pending('i20b', WALLET),
  fetchDepositAddress: pending('i20b', WALLET),
  fetchConvertCurrencies: pending('i20b', CONVERT),
  fetchConvertQuote: pending('i20b', CONVERT),
  createConvertTrade: pending('i20b', CONVERT),
  fetchConvertTradeHistory: pending('i20b', CONVERT),
  fetchCrossBorrowRate: {
    classic: outOfScope(SPOT_MARGIN),
    unified: works(async ({ exchange }) => {
      const rate = await exchange.fetchCrossBorrowRate('USDT');
      assert.equal(rate.rate, 0.000126279);
    }),
  },
  fetchIsolatedBorrowRate: outOfScope(SPOT_MARGIN),
  borrowCrossMargin: outOfScope(SPOT_MARGIN),
  borrowIsolatedMargin: outOfScope(SPOT_MARGIN),
  repayCrossMargin: outOfScope(SPOT_MARGIN),
  repayIsolatedMargin: outOfScope(SPOT_MARGIN),
  fetchBorrowInterest: outOfScope(SPOT_MARGIN),
  fetchMyLiquidations: outOfScope(`${SPOT_MARGIN} (ccxt reads liquidations of spot margin only)`),
};
