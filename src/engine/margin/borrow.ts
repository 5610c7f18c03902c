/**
 * Borrowing, explicit (`borrow`) or automatic (a margin order's loanType autoLoan /
 * autoLoanAndRepay). What a wallet may borrow of a coin is the smaller of
 *   - its leverage room: (equity × (leverage − 1) − debt) in USDT ÷ the coin's USDT price,
 *     with the crossed leverage for the crossed wallet, the symbol's isolated one for an
 *     isolated wallet (margin/tiers.ts), and
 *   - the tier's limit on the coin's principal, less what is already borrowed.
 * Each borrowing is charged its first hour of interest at once (margin/interest.ts).
 */
import type { BorrowMargin } from '../../domain/commands.ts';
import { divide, parseScaled } from '../../domain/decimal.ts';
import { MONEY_ONE, MONEY_SCALE } from '../../domain/money.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import type { Context } from '../context.ts';
import type { EngineState } from '../state.ts';
import { balanceFor, borrow, readBalance } from '../accounts/ledger.ts';
import { usdtPriceOf } from '../trading/reference-price.ts';
import { chargeInterest } from './interest.ts';
import { isolatedHolds, isolatedSymbolOf, marginInstrument, marginWallet } from './margin-wallet.ts';
import { borrowLimit, crossedLeverage, isolatedLeverage } from './tiers.ts';
import { borrowableUsdt, walletValue } from './valuation.ts';

function leverageOf(state: EngineState, wallet: string, coin: string): bigint {
  const symbol = isolatedSymbolOf(wallet);
  const instrument = symbol === null ? undefined : marginInstrument(state, symbol);
  return instrument ? isolatedLeverage(instrument) : crossedLeverage(state, coin);
}

/** The most of `coin` the wallet may borrow now (money units); 0 when the coin has no price. */
export function maxBorrowable(state: EngineState, uid: string, wallet: string, coin: string): bigint {
  if (!isolatedHolds(state, wallet, coin)) return 0n;
  const price = usdtPriceOf(state, coin);
  if (price === null || price <= 0n) return 0n;
  const roomUsdt = borrowableUsdt(walletValue(state, uid, wallet), leverageOf(state, wallet, coin));
  const byValue = divide(roomUsdt * MONEY_ONE, price, 'down');
  const byTier = borrowLimit(coin) - readBalance(state, uid, wallet, coin).borrowed;
  const most = byValue < byTier ? byValue : byTier;
  return most > 0n ? most : 0n;
}

/**
 * Borrows `amount` into the wallet and charges its first hour; the caller checked the limit.
 * The borrow bill's id (the loanId of borrow-history).
 */
export function borrowInto(
  context: Context,
  at: { uid: string; wallet: string; coin: string; symbol: string },
  amount: bigint,
  businessType: 'borrow' | 'manual_borrow',
): string {
  const billId = borrow(context, at.uid, at.wallet, at.coin, amount, at.symbol, businessType);
  const balance = balanceFor(context.state, at.uid, at.wallet, at.coin);
  chargeInterest(context, at, balance, amount, 1, 'first_interest');
  return billId;
}

export function borrowMargin(
  context: Context,
  command: BorrowMargin,
): Outcome<{ loanId: string; wallet: string; amount: bigint }> {
  const { state } = context;
  if (!state.accounts.has(command.uid)) return fail('ACCOUNT_NOT_FOUND', command.uid);
  const symbol = command.symbol ?? '';
  if (command.marginType === 'isolated' && !marginInstrument(state, symbol))
    return fail('SYMBOL_NOT_FOUND', symbol);
  const wallet = marginWallet(state, command.uid, command.marginType, symbol);
  if (!isolatedHolds(state, wallet, command.coin)) return fail('PARAM_ERROR', 'coin');
  if (usdtPriceOf(state, command.coin) === null) return fail('COIN_NOT_FOUND', command.coin);
  const amount = parseScaled(command.amount, MONEY_SCALE);
  if (amount === null || amount <= 0n) return fail('PARAM_ERROR', 'borrowAmount');
  if (amount > maxBorrowable(state, command.uid, wallet, command.coin))
    return fail('PARAM_ERROR', 'borrowAmount');
  const loanId = borrowInto(
    context,
    { uid: command.uid, wallet, coin: command.coin, symbol },
    amount,
    'manual_borrow',
  );
  return ok({ loanId, wallet, amount });
}
