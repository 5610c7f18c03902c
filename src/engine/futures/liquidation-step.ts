/**
 * One step of a liquidation: `lots` of a position closed through the book by a liquidation
 * order (IOC at the bankruptcy price). Before it is placed, what the book cannot absorb at
 * that price is given a taker at the same price, resting behind the book's own orders: the
 * insurance fund (opening the liquidated side) as far as its balance covers the loss it would
 * take at the mark, then ADL counterparties in ranking order (closing their opposite
 * positions, no fee); should neither be enough (no opposite position left), the fund takes the
 * rest whatever its balance. So the liquidation order always fills whole, every lot at the
 * bankruptcy price or better, and the trader sees one order and its fills.
 */
import { isInverse } from '../../domain/category.ts';
import type { Instrument } from '../../domain/instrument.ts';
import type { Order } from '../../domain/order.ts';
import { directionOf, type Position } from '../../domain/position.ts';
import { ticksToMoney } from '../instruments/scales.ts';
import { cancelOpenOrder } from '../trading/cancel.ts';
import type { TradingContext } from '../trading/trading-context.ts';
import { adlQueue } from './adl.ts';
import { bankruptcyPrice, liquidationTicks } from './bankruptcy.ts';
import { ensureInsuranceFund, fundCapacityLots, insuranceFundBalance } from './insurance.ts';
import { restEngineOrder, takeWithEngineOrder } from './liquidation-orders.ts';
import { valueAt } from './risk.ts';

/** Lots resting on the side a liquidation order of `side` takes from, at `ticks` or better. */
function bookLotsAtOrBetter(
  trading: TradingContext,
  instrument: Instrument,
  side: 'buy' | 'sell',
  ticks: number,
): number {
  const book = trading.books.peek(`${instrument.category}:${instrument.symbol}`);
  if (!book) return 0;
  let lots = 0;
  for (const resting of book.iterate(side === 'sell' ? 'buy' : 'sell')) {
    if (side === 'sell' ? resting.priceTicks < ticks : resting.priceTicks > ticks) break;
    lots += resting.remainingLots;
  }
  return lots;
}

/** What one lot taken over at `ticks` would cost its taker at the mark (negative: a gain). */
function lossPerLot(instrument: Instrument, position: Position, ticks: number, markMoney: bigint): bigint {
  const atPrice = valueAt(instrument, 1, ticksToMoney(instrument, ticks));
  const atMark = valueAt(instrument, 1, markMoney);
  const gain = isInverse(instrument.category) ? atPrice - atMark : atMark - atPrice;
  return -directionOf(position.holdSide) * gain;
}

function restAdlOrders(
  trading: TradingContext,
  instrument: Instrument,
  position: Position,
  ticks: number,
  lots: number,
): { orders: Order[]; left: number } {
  const { state } = trading.context;
  const opposite = position.holdSide === 'long' ? 'short' : 'long';
  const side = position.holdSide === 'long' ? 'buy' : 'sell';
  const orders: Order[] = [];
  let left = lots;
  for (const { position: other } of adlQueue(
    state,
    trading.books,
    position.category,
    position.symbol,
    opposite,
    position.uid,
  )) {
    if (left <= 0) break;
    // Lots held by the counterparty's own close orders stay theirs.
    const take = Math.min(left, other.sizeLots - other.lockedLots);
    if (take <= 0) continue;
    orders.push(
      restEngineOrder(trading, instrument, {
        uid: other.uid,
        wallet: other.wallet,
        marginCoin: other.marginCoin,
        holdSide: opposite,
        tradeSide: 'close',
        side,
        lots: take,
        priceTicks: ticks,
        source: 'adl',
        marginMode: other.marginMode,
        leverage: other.leverage,
      }),
    );
    left -= take;
  }
  return { orders, left };
}

export function liquidateLots(
  trading: TradingContext,
  instrument: Instrument,
  position: Position,
  lots: number,
  equity: bigint,
  markMoney: bigint,
): Order {
  const { context } = trading;
  const side = position.holdSide === 'long' ? 'sell' : 'buy';
  const ticks = liquidationTicks(
    instrument,
    side,
    bankruptcyPrice(instrument, position, equity, markMoney),
    markMoney,
  );
  const unabsorbed = Math.max(0, lots - bookLotsAtOrBetter(trading, instrument, side, ticks));
  const takers: Order[] = [];
  if (unabsorbed > 0) {
    const fund = ensureInsuranceFund(context.state, context.nowMs);
    const balance = insuranceFundBalance(context.state, position.marginCoin);
    const loss = lossPerLot(instrument, position, ticks, markMoney);
    const fundLots = fundCapacityLots(balance, loss, unabsorbed);
    const adl = restAdlOrders(trading, instrument, position, ticks, unabsorbed - fundLots);
    const fundTotal = fundLots + adl.left;
    if (fundTotal > 0) {
      takers.push(
        restEngineOrder(trading, instrument, {
          uid: fund,
          wallet: position.wallet,
          marginCoin: position.marginCoin,
          holdSide: position.holdSide,
          tradeSide: 'open',
          side: side === 'sell' ? 'buy' : 'sell',
          lots: fundTotal,
          priceTicks: ticks,
          source: 'liquidation',
          marginMode: 'crossed',
          leverage: 1,
        }),
      );
    }
    takers.push(...adl.orders);
  }
  const order = takeWithEngineOrder(trading, instrument, {
    uid: position.uid,
    wallet: position.wallet,
    marginCoin: position.marginCoin,
    holdSide: position.holdSide,
    tradeSide: 'close',
    side,
    lots,
    priceTicks: ticks,
    source: 'liquidation',
    marginMode: position.marginMode,
    leverage: position.leverage,
  });
  // Nothing should be left of them; if the book changed under the count, it goes.
  for (const taker of takers) cancelOpenOrder(trading, taker, 'normal_cancel');
  return order;
}
