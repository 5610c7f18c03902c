/**
 * ccxt's account methods: balances and ledger, positions and their settings, transfers, the
 * wallet (deposits, withdrawals, addresses), fees, convert and borrowing.
 */
import assert from 'node:assert/strict';
import type { CcxtContext } from './ccxt-context.ts';
import { SPOT, SWAP } from './harness.ts';
import { CCXT_MARGIN_CASES } from './ccxt-margin-cases.ts';
import { outOfScope, works, type Entry } from './verdict.ts';

type Cases = Record<string, Entry<CcxtContext>>;

/** ccxt has no unified-account path for these: it calls the classic v2 margin endpoints. */
const CLASSIC_MARGIN =
  'ccxt calls the classic v2 margin endpoints here, which the venue refuses a unified account (40085); bourse serves them to one only when account modes are not enforced, and this suite does not count on that';

/** A pending on-chain withdrawal of 10 USDT; its id. */
async function withdrawTen({ exchange }: CcxtContext): Promise<string> {
  const sent = await exchange.withdraw('USDT', 10, 'TQ1xExternal', undefined, { network: 'TRC20' });
  return String(sent.id);
}

/** 100 USDT converted to BTC at a fresh quote. */
async function convertHundred({ exchange }: CcxtContext) {
  const quote = await exchange.fetchConvertQuote('USDT', 'BTC', 100);
  const trade = await exchange.createConvertTrade(String(quote.id), 'USDT', 'BTC', 100, {
    price: quote.price,
    toAmount: (quote.info as { toCoinSize: string }).toCoinSize,
  });
  return { quote, trade };
}

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
    unified: works(async ({ exchange }) => {
      // The unified account's funding wallet and its one trading wallet.
      await exchange.transfer('USDT', 25, 'uta', 'funding');
      const funding = await exchange.fetchBalance({ type: 'funding' });
      assert.equal(funding.USDT?.total, 25);
    }),
  },
  fetchTransfers: works(async ({ exchange, kind }) => {
    if (kind === 'classic') await exchange.transfer('USDT', 25, 'spot', 'swap');
    const transfers = await exchange.fetchTransfers('USDT');
    assert.ok(Array.isArray(transfers));
    if (kind === 'classic') assert.equal(transfers[0]?.amount, 25);
  }),
  fetchTradingFees: works(async ({ exchange, kind }) => {
    const fees = await exchange.fetchTradingFees(kind === 'unified' ? { type: 'spot' } : {});
    assert.equal(fees[SPOT]?.taker, 0.001);
  }),
  fetchTradingFee: works(async ({ exchange }) => {
    const fee = await exchange.fetchTradingFee(SWAP);
    assert.deepEqual([fee.maker, fee.taker], [0.0002, 0.0006]);
  }),
  fetchDepositAddress: works(async ({ exchange }) => {
    const address = await exchange.fetchDepositAddress('USDT', { network: 'TRC20' });
    assert.deepEqual([address.network, /^0x[0-9a-f]+$/.test(address.address ?? '')], ['TRC20', true]);
  }),
  fetchDeposits: works(async ({ exchange, kind }) => {
    // The operator's USDT deposits: spot and USDT-M futures (classic), the one wallet (unified).
    const deposits = await exchange.fetchDeposits('USDT');
    const expected = Array.from({ length: kind === 'classic' ? 2 : 1 }, () => [100000, 'ok', 'deposit']);
    assert.deepEqual(
      deposits.map((deposit) => [deposit.amount, deposit.status, deposit.type]),
      expected,
    );
  }),
  fetchDeposit: works(async ({ exchange }) => {
    const [listed] = await exchange.fetchDeposits('USDT');
    const deposit = await exchange.fetchDeposit(String(listed?.id), 'USDT');
    assert.deepEqual([deposit.id, deposit.amount], [listed?.id, 100000]);
  }),
  withdraw: works(async (context) => {
    const sent = await withdrawTen(context);
    const [pending] = await context.exchange.fetchWithdrawals('USDT');
    assert.deepEqual([pending?.id, pending?.status, pending?.amount], [sent, 'pending', 10]);
  }),
  fetchWithdrawals: works(async (context) => {
    const sent = await withdrawTen(context);
    const withdrawals = await context.exchange.fetchWithdrawals('USDT');
    assert.deepEqual(
      withdrawals.map((one) => [one.id, one.addressTo]),
      [[sent, 'TQ1xExternal']],
    );
  }),
  fetchWithdrawal: works(async (context) => {
    const sent = await withdrawTen(context);
    const withdrawal = await context.exchange.fetchWithdrawal(sent, 'USDT');
    assert.deepEqual([withdrawal.id, withdrawal.status], [sent, 'pending']);
  }),
  fetchConvertCurrencies: works(async ({ exchange }) => {
    const currencies = await exchange.fetchConvertCurrencies();
    assert.ok(currencies.BTC && currencies.USDT, Object.keys(currencies).join());
  }),
  fetchConvertQuote: works(async ({ exchange }) => {
    const quote = await exchange.fetchConvertQuote('USDT', 'BTC', 100);
    assert.ok(quote.id && (quote.price ?? 0) > 0 && (quote.toAmount ?? 0) > 0, JSON.stringify(quote.info));
  }),
  createConvertTrade: works(async (context) => {
    const { quote, trade } = await convertHundred(context);
    assert.equal(trade.toAmount, quote.toAmount);
  }),
  fetchConvertTradeHistory: works(async (context) => {
    const { quote } = await convertHundred(context);
    const history = await context.exchange.fetchConvertTradeHistory();
    assert.deepEqual(
      history.map((one) => [one.fromCurrency, one.fromAmount, one.toCurrency, one.toAmount]),
      [['USDT', 100, 'BTC', quote.toAmount]],
    );
  }),
  fetchCrossBorrowRate: {
    classic: works(CCXT_MARGIN_CASES.fetchCrossBorrowRate),
    unified: works(async ({ exchange }) => {
      const rate = await exchange.fetchCrossBorrowRate('USDT');
      assert.equal(rate.rate, 0.000126279);
    }),
  },
  fetchIsolatedBorrowRate: {
    classic: works(CCXT_MARGIN_CASES.fetchIsolatedBorrowRate),
    unified: outOfScope(CLASSIC_MARGIN),
  },
  borrowCrossMargin: {
    classic: works(CCXT_MARGIN_CASES.borrowCrossMargin),
    unified: outOfScope(CLASSIC_MARGIN),
  },
  borrowIsolatedMargin: {
    classic: works(CCXT_MARGIN_CASES.borrowIsolatedMargin),
    unified: outOfScope(CLASSIC_MARGIN),
  },
  repayCrossMargin: {
    classic: works(CCXT_MARGIN_CASES.repayCrossMargin),
    unified: outOfScope(CLASSIC_MARGIN),
  },
  repayIsolatedMargin: {
    classic: works(CCXT_MARGIN_CASES.repayIsolatedMargin),
    unified: outOfScope(CLASSIC_MARGIN),
  },
  fetchBorrowInterest: {
    classic: works(CCXT_MARGIN_CASES.fetchBorrowInterest),
    unified: outOfScope(CLASSIC_MARGIN),
  },
  fetchMyLiquidations: {
    classic: works(CCXT_MARGIN_CASES.fetchMyLiquidations),
    unified: outOfScope(CLASSIC_MARGIN),
  },
};
