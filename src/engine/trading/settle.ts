/**
 * Settlement of one fill (spot and margin): each side pays from its hold and receives the
 * other coin less its fee. Fees are the instrument's maker or taker rate on what is received,
 * charged in that coin and rounded up (against the payer); they are added to feesCollected.
 */
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import { transition, type Order } from '../../domain/order.ts';
import { findBalance, postChange } from '../accounts/ledger.ts';
import { lotsToMoney, lotsToQuantity, ticksToPrice } from '../instruments/scales.ts';
import type { Fill } from '../matching/index.ts';
import { recordFill } from './fill-record.ts';
import { repayCoin } from '../margin/repay.ts';
import { isFutures } from '../../domain/category.ts';
import { settleFuturesSide } from '../futures/settle.ts';
import { touch, type TradingContext } from './trading-context.ts';

// The rates live below trading and futures alike (instruments/fees.ts); re-exported for the
// modules that have always taken them from here.
export { feeRate } from '../instruments/fees.ts';
import { tradeFee } from '../instruments/fees.ts';

function settleSide(
  trading: TradingContext,
  instrument: Instrument,
  order: Order,
  fill: Fill,
  role: 'maker' | 'taker',
  tradeId: string,
): void {
  const { context } = trading;
  const baseAmount = lotsToMoney(instrument, fill.lots);
  const buying = order.side === 'buy';
  const paidCoin = buying ? instrument.quoteCoin : instrument.baseCoin;
  const paid = buying ? fill.quote : baseAmount;
  const receivedCoin = buying ? instrument.baseCoin : instrument.quoteCoin;
  const received = buying ? baseAmount : fill.quote;
  const fee = tradeFee(instrument, role, received);
  const businessType = buying ? 'buy' : 'sell';
  const { uid, wallet, category } = order;
  const symbol = instrument.symbol;
  postChange(context, uid, wallet, paidCoin, -paid, businessType, symbol, 0n, category, 'frozen');
  postChange(
    context,
    uid,
    wallet,
    receivedCoin,
    received - fee,
    businessType,
    symbol,
    fee,
    category,
    'available',
  );
  const fees = context.state.feesCollected;
  if (fee > 0n) fees.set(receivedCoin, (fees.get(receivedCoin) ?? 0n) + fee);
  // Margin autoRepay / autoLoanAndRepay: what the fill brings in pays that coin's debt at once.
  if (order.loanType === 'autoRepay' || order.loanType === 'autoLoanAndRepay') {
    repayCoin(context, uid, wallet, receivedCoin, undefined, 'auto_repay');
  }

  order.holdAmount -= paid;
  order.filledLots += fill.lots;
  order.filledQuote += fill.quote;
  order.feeCoin = receivedCoin;
  order.feeTotal += fee;
  const complete = order.quantityLots > 0 && order.filledLots >= order.quantityLots;
  transition(order, complete ? 'filled' : 'partially_filled');
  touch(trading, order);
  recordFill(context, instrument, order, fill, {
    role,
    tradeId,
    feeCoin: receivedCoin,
    fee,
    pnl: 0n,
    tradeSide: 'open',
  });
}

export function settleFill(trading: TradingContext, instrument: Instrument, taker: Order, fill: Fill): void {
  const maker = trading.context.state.orders.get(fill.makerOrderId);
  if (!maker) throw new Error(`fill against unknown maker ${fill.makerOrderId}`);
  const tradeId = trading.context.nextId();
  const settle = isFutures(instrument.category) ? settleFuturesSide : settleSide;
  settle(trading, instrument, maker, fill, 'maker', tradeId);
  settle(trading, instrument, taker, fill, 'taker', tradeId);
  const key = instrumentKey(instrument.category, instrument.symbol);
  trading.context.state.lastTradeTicks.set(key, fill.priceTicks);
  if (maker.status === 'filled') releaseOrder(trading, maker);
  if (!trading.context.recording) return;
  trading.context.emit({
    type: 'TradeRecorded',
    tradeId,
    category: instrument.category,
    symbol: instrument.symbol,
    price: ticksToPrice(instrument, fill.priceTicks),
    quantity: lotsToQuantity(instrument, fill.lots),
    side: taker.side,
    timeMs: trading.context.nowMs,
  });
}

/** Everything an order still holds goes back: its funds, and (close orders) the position lots. */
export function releaseOrder(trading: TradingContext, order: Order): void {
  releaseHold(trading, order);
  const futures = order.futures;
  if (futures?.tradeSide !== 'close') return;
  const unfilled = order.quantityLots - order.filledLots;
  const key = `${order.uid}|${order.category}|${order.symbol}|${futures.holdSide}`;
  const position = trading.context.state.positions.get(key);
  if (position && unfilled > 0) position.lockedLots = Math.max(0, position.lockedLots - unfilled);
}

/** Returns whatever an order still holds to available (on completion or cancel). */
export function releaseHold(trading: TradingContext, order: Order): void {
  if (order.holdAmount === 0n) return;
  const balance = findBalance(trading.context.state, order.uid, order.wallet, order.holdCoin);
  if (!balance || balance.frozen < order.holdAmount)
    throw new Error(`order ${order.orderId} holds more than frozen`);
  balance.frozen -= order.holdAmount;
  balance.available += order.holdAmount;
  order.holdAmount = 0n;
}
