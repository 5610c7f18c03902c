/**
 * Holds: placing an order freezes what it may spend (a buy: its quote value or market amount;
 * a sell: its base quantity). A margin order first borrows what the wallet lacks, up to the
 * instrument's cross leverage (auto-borrow).
 */
import { divide } from '../../domain/decimal.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { MONEY_ONE } from '../../domain/money.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import type { Context } from '../context.ts';
import { borrow, findBalance, freeze, readBalance } from '../accounts/ledger.ts';
import { lotsToMoney, quoteValue } from '../instruments/scales.ts';
import { chargeInterest } from '../margin/interest.ts';
import { borrowableUsdt, walletValue } from '../margin/valuation.ts';
import { usdtPriceOf } from './reference-price.ts';
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
    order.quoteAmount > 0n ? order.quoteAmount : quoteValue(instrument, order.priceTicks, order.quantityLots);
  return { coin: instrument.quoteCoin, amount };
}

/** Checks and (margin) borrows, then freezes. Changes nothing when it fails. */
export function placeHold(
  context: Context,
  uid: string,
  wallet: string,
  instrument: Instrument,
  hold: Hold,
): Outcome<true> {
  const available = readBalance(context.state, uid, wallet, hold.coin).available;
  const shortfall = hold.amount - available;
  if (shortfall > 0n) {
    if (instrument.category !== 'MARGIN') return fail('INSUFFICIENT_BALANCE');
    const price = usdtPriceOf(context.state, hold.coin);
    if (price === null) return fail('INSUFFICIENT_BALANCE');
    const leverage = BigInt(Number(instrument.maxCrossedLeverage || '1'));
    const room = borrowableUsdt(walletValue(context.state, uid, wallet), leverage);
    if (divide(shortfall * price, MONEY_ONE, 'up') > room) return fail('INSUFFICIENT_BALANCE');
    borrow(context, uid, wallet, hold.coin, shortfall, instrument.symbol);
    const balance = findBalance(context.state, uid, wallet, hold.coin);
    if (balance) chargeInterest(context.state, hold.coin, balance, shortfall, 1);
  }
  freeze(context, uid, wallet, hold.coin, hold.amount);
  return ok(true);
}
