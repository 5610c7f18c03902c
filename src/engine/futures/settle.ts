/**
 * Settlement of one side of a futures fill (linear contracts). The order's reserve for the
 * filled lots is released; the fill first closes what it closes (a close order's position, or
 * in one-way mode the opposite position) and opens the rest; realised PnL less the fee is one
 * bill. A loss beyond the wallet's available balance is covered by the insurance fund.
 */
import { divide } from '../../domain/decimal.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { MONEY_ONE } from '../../domain/money.ts';
import { transition, type Order } from '../../domain/order.ts';
import { positionKey, type HoldSide } from '../../domain/position.ts';
import { balanceFor, mayGoNegative, post } from '../accounts/ledger.ts';
import type { Context } from '../context.ts';
import type { Fill } from '../matching/index.ts';
import { feeRate } from '../instruments/fees.ts';
import { recordFill } from '../trading/fill-record.ts';
import { touch, type TradingContext } from '../trading/trading-context.ts';
import { ensureInsuranceFund, INSURANCE_FUND_UID } from './insurance.ts';
import { closeLeg, openLeg, retireIfFlat } from './positions.ts';

const opposite = (side: HoldSide): HoldSide => (side === 'long' ? 'short' : 'long');

/** Posts `amount` to available; if that would go below zero the insurance fund covers the gap. */
export function postCovered(
  context: Context,
  posting: {
    uid: string;
    wallet: string;
    coin: string;
    amount: bigint;
    businessType: string;
    category: string;
    symbol: string;
    fee: bigint;
  },
): void {
  const balance = balanceFor(context.state, posting.uid, posting.wallet, posting.coin);
  const covered = !mayGoNegative(context.state, posting.uid, posting.wallet, posting.coin);
  const shortfall = covered ? -(balance.available + posting.amount) : 0n;
  if (shortfall > 0n) {
    const fund = ensureInsuranceFund(context.state, context.nowMs);
    const transfer = {
      coin: posting.coin,
      wallet: posting.wallet,
      symbol: posting.symbol,
      fee: 0n,
      category: posting.category,
    };
    post(context, {
      ...transfer,
      uid: fund,
      amount: -shortfall,
      businessType: 'risk_captital_user_transfer',
    });
    post(context, {
      ...transfer,
      uid: posting.uid,
      amount: shortfall,
      businessType: 'risk_captital_user_transfer',
    });
  }
  post(context, posting);
}

/**
 * The bill of a fill side: hedge open_/close_<side>, one-way buy/sell; a liquidation order's
 * close force_close_<side> (hedge) or burst_buy/sell (one-way); an ADL close adl_close_<side>.
 */
function billType(order: Order, closing: boolean, holdSide: HoldSide): string {
  const futures = order.futures;
  const oneWay = !futures || futures.posMode === 'one_way_mode';
  if (closing && order.source === 'adl') return `adl_close_${holdSide}`;
  if (closing && order.source === 'liquidation' && order.uid !== INSURANCE_FUND_UID)
    return oneWay ? `burst_${order.side}` : `force_close_${holdSide}`;
  if (oneWay) return order.side;
  return `${closing ? 'close' : 'open'}_${holdSide}`;
}

/**
 * The fill's trade side as the venue's fill records spell a forced close (the wire derives the
 * one-way spellings from it): burst_close_<side> for a liquidation, dte_sys_adl_close_<side>
 * for ADL; open or close otherwise.
 */
function fillTradeSide(order: Order, closing: boolean, posSide: HoldSide): string {
  if (!closing) return 'open';
  if (order.source === 'adl') return `dte_sys_adl_close_${posSide}`;
  if (order.source === 'liquidation' && order.uid !== INSURANCE_FUND_UID) return `burst_close_${posSide}`;
  return 'close';
}

/** ADL closes and the insurance fund's takeovers trade without a fee (venue-mechanics §3.6). */
function chargesFee(order: Order): boolean {
  return order.source !== 'adl' && order.uid !== INSURANCE_FUND_UID;
}

export function settleFuturesSide(
  trading: TradingContext,
  instrument: Instrument,
  order: Order,
  fill: Fill,
  role: 'maker' | 'taker',
  tradeId: string,
): void {
  const { context } = trading;
  const { state } = context;
  const futures = order.futures;
  if (!futures) throw new Error(`order ${order.orderId} has no futures fields`);
  const { uid, wallet } = order;
  const coin = futures.marginCoin;

  const unfilled = order.quantityLots - order.filledLots;
  const release =
    fill.lots >= unfilled
      ? order.holdAmount
      : divide(order.holdAmount * BigInt(fill.lots), BigInt(unfilled), 'down');
  if (release > 0n) {
    const balance = balanceFor(state, uid, wallet, coin);
    balance.frozen -= release;
    balance.available += release;
    order.holdAmount -= release;
  }

  let remaining = fill.lots;
  let pnl = 0n;
  let closedLots = 0;
  const valueOf = (lots: number) =>
    lots === fill.lots ? fill.quote : divide(fill.quote * BigInt(lots), BigInt(fill.lots), 'down');
  const closeSide =
    futures.tradeSide === 'close'
      ? futures.holdSide
      : futures.posMode === 'one_way_mode'
        ? opposite(futures.holdSide)
        : null;
  if (closeSide) {
    const position = state.positions.get(positionKey(uid, instrument.category, instrument.symbol, closeSide));
    const lots = position ? Math.min(remaining, position.sizeLots) : 0;
    if (position && lots > 0) {
      if (futures.tradeSide === 'close') position.lockedLots = Math.max(0, position.lockedLots - lots);
      pnl += closeLeg(context, position, lots, valueOf(lots)).pnl;
      remaining -= lots;
      closedLots = lots;
    }
  }
  const openSide = futures.tradeSide === 'close' ? opposite(futures.holdSide) : futures.holdSide;
  const openValue = fill.quote - (closedLots > 0 ? valueOf(closedLots) : 0n);

  const fee = chargesFee(order) ? divide(fill.quote * feeRate(instrument, role), MONEY_ONE, 'up') : 0n;
  const closingFee = closedLots > 0 ? divide(fee * BigInt(closedLots), BigInt(fill.lots), 'down') : 0n;
  postCovered(context, {
    uid,
    wallet,
    coin,
    amount: pnl - fee,
    businessType: billType(order, closedLots > 0, closedLots > 0 && closeSide ? closeSide : openSide),
    category: instrument.category,
    symbol: instrument.symbol,
    fee,
  });
  if (fee > 0n) state.feesCollected.set(coin, (state.feesCollected.get(coin) ?? 0n) + fee);

  if (closedLots > 0 && closeSide) {
    const closed = state.positions.get(positionKey(uid, instrument.category, instrument.symbol, closeSide));
    if (closed) {
      closed.closeFeeTotal += closingFee;
      retireIfFlat(context, instrument, closed);
    }
  }
  if (remaining > 0) {
    const position = openLeg(context, {
      uid,
      wallet,
      instrument,
      marginCoin: coin,
      holdSide: openSide,
      marginMode: futures.marginMode,
      leverage: futures.leverage,
      lots: remaining,
      value: openValue,
    });
    position.openFeeTotal += fee - closingFee;
  }

  order.filledLots += fill.lots;
  order.filledQuote += fill.quote;
  order.feeCoin = coin;
  order.feeTotal += fee;
  futures.realisedPnl += pnl;
  transition(order, order.filledLots >= order.quantityLots ? 'filled' : 'partially_filled');
  touch(trading, order);
  recordFill(context, instrument, order, fill, {
    role,
    tradeId,
    feeCoin: coin,
    fee,
    pnl,
    tradeSide: fillTradeSide(order, closedLots > 0, closedLots > 0 && closeSide ? closeSide : openSide),
    posSide: closedLots > 0 && closeSide ? closeSide : openSide,
    posMode: futures.posMode,
  });
}
