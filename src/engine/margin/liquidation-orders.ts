/**
 * The orders a margin liquidation places through a MARGIN book (orders marked `liquidation`,
 * immediate-or-cancel): a market sell of some of the wallet's base coin, and a market buy that
 * takes back a borrowed base coin with the wallet's quote coin. Each fills what the book holds
 * and cancels the rest; nothing rests. Quantities are whole lots; the buy spends at most the
 * quote coin the wallet has (its budget), and takes at most the lots asked (its cap).
 */
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import { freeze, readBalance } from '../accounts/ledger.ts';
import { lotsToMoney } from '../instruments/scales.ts';
import { execute, openOrder } from '../trading/order-entry.ts';
import type { TradingContext } from '../trading/trading-context.ts';
import type { ValidOrder } from '../trading/validate.ts';

/** Base coin (money units) that `lots` fill; `filled` is false when nothing traded. */
export interface LiquidationFill {
  filled: boolean;
  lots: number;
}

/**
 * Holds `hold` in the wallet and runs one liquidation market order of `lots` (a buy also
 * spends at most `quoteAmount`); what it filled.
 */
function placeLiquidation(
  trading: TradingContext,
  uid: string,
  wallet: string,
  instrument: Instrument,
  order: { side: 'buy' | 'sell'; lots: number; quoteAmount: bigint; hold: { coin: string; amount: bigint } },
): LiquidationFill {
  freeze(trading.context, uid, wallet, order.hold.coin, order.hold.amount);
  const valid: ValidOrder = {
    instrument,
    key: instrumentKey('MARGIN', instrument.symbol),
    priceTicks: 0,
    quantityLots: order.lots,
    quoteAmount: order.quoteAmount,
  };
  const placed = openOrder(trading, {
    uid,
    clientOid: '',
    category: 'MARGIN',
    wallet,
    request: { side: order.side, orderType: 'market', timeInForce: 'ioc', stpMode: 'none' },
    valid,
    hold: order.hold,
    source: 'liquidation',
  });
  execute(trading, valid, placed);
  return { filled: placed.filledLots > 0, lots: placed.filledLots };
}

/** Sells up to `lots` of the wallet's base coin at market (at most what the wallet holds). */
export function sellBase(
  trading: TradingContext,
  uid: string,
  wallet: string,
  instrument: Instrument,
  lots: number,
): LiquidationFill {
  const held = readBalance(trading.context.state, uid, wallet, instrument.baseCoin).available;
  const lotMoney = lotsToMoney(instrument, 1);
  const most = Number(held / lotMoney);
  const selling = Math.min(lots, most);
  if (selling <= 0) return { filled: false, lots: 0 };
  const amount = lotMoney * BigInt(selling);
  return placeLiquidation(trading, uid, wallet, instrument, {
    side: 'sell',
    lots: selling,
    quoteAmount: 0n,
    hold: { coin: instrument.baseCoin, amount },
  });
}

/**
 * Buys up to `lots` of the base coin at market, spending at most the wallet's available quote
 * coin (the whole of it is held while the order runs and the unspent part released after).
 * The matcher takes the cap in lots and the budget together (whole lots only).
 */
export function buyBase(
  trading: TradingContext,
  uid: string,
  wallet: string,
  instrument: Instrument,
  lots: number,
): LiquidationFill {
  const budget = readBalance(trading.context.state, uid, wallet, instrument.quoteCoin).available;
  if (lots <= 0 || budget <= 0n) return { filled: false, lots: 0 };
  return placeLiquidation(trading, uid, wallet, instrument, {
    side: 'buy',
    lots,
    quoteAmount: budget,
    hold: { coin: instrument.quoteCoin, amount: budget },
  });
}
