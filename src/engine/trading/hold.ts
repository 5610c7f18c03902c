/**
 * Holds: placing an order freezes what it may spend (a buy: its quote value or market amount;
 * a sell: its base quantity). A margin order first borrows what the wallet lacks, up to what
 * the wallet may borrow (auto-borrow, margin/borrow.ts), unless its loanType forbids it.
 */
import type { Instrument } from '../../domain/instrument.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import type { Context } from '../context.ts';
import { freeze, readBalance } from '../accounts/ledger.ts';
import { lotsToMoney, quoteValue } from '../instruments/scales.ts';
import { borrowInto, maxBorrowable } from '../margin/borrow.ts';
import type { ValidOrder } from './validate.ts';

export interface Hold {
  coin: string;
  amount: bigint;
}

export function holdFor(order: ValidOrder, side: 'buy' | 'sell'): Hold {
  const { instrument } = order;
  if (side === 'sell')
    return { coin: instrument.baseCoin, amount: lotsToMoney(instrument, order.quantityLots) };
  const amount =
    order.quoteAmount > 0n
      ? order.quoteAmount
      : (order.notional ?? quoteValue(instrument, order.priceTicks, order.quantityLots));
  return { coin: instrument.quoteCoin, amount };
}

/**
 * Checks and (margin, when the order may borrow) borrows, then freezes. Changes nothing when
 * it fails.
 */
export function placeHold(
  context: Context,
  uid: string,
  wallet: string,
  instrument: Instrument,
  hold: Hold,
  mayBorrow = true,
): Outcome<true> {
  const available = readBalance(context.state, uid, wallet, hold.coin).available;
  const shortfall = hold.amount - available;
  if (shortfall > 0n) {
    if (instrument.category !== 'MARGIN' || !mayBorrow) return fail('INSUFFICIENT_BALANCE');
    if (shortfall > maxBorrowable(context.state, uid, wallet, hold.coin)) return fail('INSUFFICIENT_BALANCE');
    borrowInto(context, { uid, wallet, coin: hold.coin, symbol: instrument.symbol }, shortfall, 'borrow');
  }
  freeze(context, uid, wallet, hold.coin, hold.amount);
  return ok(true);
}
