/**
 * Order entry, the part of placing an order after its checks and hold: record it as live,
 * match it against its book and settle the outcome (DESIGN.md, "The pipeline of one order").
 * Shared by spot/margin placement (place.ts), futures placement (futures/place.ts) and the
 * orders the risk engine places; none of them imports another for it.
 *
 * Taker outcomes: a gtc remainder rests; ioc and market remainders are cancelled; a fok that
 * cannot fill whole, and a post_only that would take, are cancelled at once with no fill.
 */
import type { OrderRequest } from '../../domain/commands.ts';
import { transition, type CancelReason, type Order } from '../../domain/order.ts';
import { scalesOf } from '../instruments/scales.ts';
import {
  match,
  type Fill,
  type MakerCancellation,
  type MatchResult,
  type TakerCancelReason,
} from '../matching/index.ts';
import { cancelOpenOrder } from './cancel.ts';
import { releaseOrder, settleFill } from './settle.ts';
import { countOpen, touch, type TradingContext } from './trading-context.ts';
import type { ValidOrder } from './validate.ts';
import { stpOwner } from './books.ts';

const CANCEL_REASONS: Record<TakerCancelReason, CancelReason> = {
  ioc_remainder: 'ioc_cancel',
  fok_unfillable: 'fok_cancel',
  post_only_would_take: 'post_only_cancel',
  stp: 'stp_cancel',
  market_remainder: 'market_cancel',
  no_liquidity: 'market_cancel',
};

export interface NewOrder {
  uid: string;
  clientOid: string;
  category: Order['category'];
  wallet: string;
  request: Pick<OrderRequest, 'side' | 'orderType' | 'timeInForce' | 'stpMode' | 'loanType'>;
  valid: ValidOrder;
  hold: { coin: string; amount: bigint };
  source: Order['source'];
}

/** Records a new, held order as live (not yet matched). */
export function openOrder(trading: TradingContext, fields: NewOrder): Order {
  const { context } = trading;
  const { state, nowMs } = context;
  const { request, valid, uid } = fields;
  const orderId = context.nextId();
  const order: Order = {
    orderId,
    clientOid: fields.clientOid || orderId,
    uid,
    category: fields.category,
    symbol: valid.instrument.symbol,
    wallet: fields.wallet,
    side: request.side,
    orderType: request.orderType,
    timeInForce: request.orderType === 'market' ? 'ioc' : request.timeInForce,
    stpMode: request.stpMode,
    priceTicks: valid.priceTicks,
    quantityLots: valid.quantityLots,
    quoteAmount: valid.quoteAmount,
    filledLots: 0,
    filledQuote: 0n,
    feeCoin: request.side === 'buy' ? valid.instrument.baseCoin : valid.instrument.quoteCoin,
    feeTotal: 0n,
    status: 'live',
    cancelReason: '',
    holdCoin: fields.hold.coin,
    holdAmount: fields.hold.amount,
    sequence: state.nextSequence++,
    source: fields.source,
    createdTimeMs: nowMs,
    updatedTimeMs: nowMs,
  };
  // Set after the literal, not spread inside it: a spread in the middle of a literal makes V8
  // build the object property by property (about 60% of openOrder's time on the crossing
  // stream, 2026-11-26). Absent, not undefined: a snapshot's JSON and the state hash see the
  // same keys either way.
  if (fields.category === 'MARGIN' && request.loanType) order.loanType = request.loanType;
  if (fields.clientOid) state.clientOids.set(`${uid}|${fields.clientOid}`, { orderId, timeMs: nowMs });
  // Opened and then touched at once, with nothing touched between: finish relies on it.
  trading.opened.push(order);
  touch(trading, order);
  return order;
}

/**
 * Enters an order that rests in its book into the open orders (`state.orders`) and its
 * account's open-order counts; an order already there (an amended one) stays as it is.
 *
 * Only resting orders enter: an order that fills or is cancelled while it is placed never
 * does. Besides keeping such an order out of the open-order counts of the orders after it in
 * a batch, this keeps a long-lived Map from growing and shrinking around short-lived orders:
 * V8 rehashes a Map's table as it grows and shrinks, and the table left behind, already in the
 * old generation, keeps every order it held alive through young-generation collections until
 * the next full one, so each such order was promoted (about 7 MB per scavenge under entry
 * load, scavenges of 8–15 ms; docs/performance.md).
 */
export function rest(trading: TradingContext, order: Order): void {
  const orders = trading.context.state.orders;
  if (orders.has(order.orderId)) return;
  orders.set(order.orderId, order);
  countOpen(trading, order, 1);
}

/** Matches a new order against its book and settles the outcome. */
export function execute(trading: TradingContext, valid: ValidOrder, order: Order): MatchResult {
  const { instrument } = valid;
  const book = trading.books.of(valid.key);
  const marketBuy = order.quoteAmount > 0n;
  // A market buy is sized by its quote budget; one that also names lots (a margin
  // liquidation's buy-back) stops at whichever runs out first.
  const buyCap = order.quantityLots > 0 ? order.quantityLots - order.filledLots : undefined;
  // One object shape whatever the order (absent fields undefined): spreading the optional
  // ones cost ~2% of the event loop under order entry.
  const result = match(book, {
    orderId: order.orderId,
    ownerId: stpOwner(trading.context.state, order.uid),
    side: order.side,
    kind: order.orderType,
    priceTicks: order.orderType === 'limit' ? order.priceTicks : valid.protectionTicks,
    quoteBudget: marketBuy ? order.quoteAmount : undefined,
    lots: marketBuy ? buyCap : order.quantityLots - order.filledLots,
    quoteOf: scalesOf(instrument).quoteOf,
    timeInForce: order.timeInForce,
    stpMode: order.stpMode,
    sequence: order.sequence,
  });
  applyMatch(trading, valid, order, result);
  return result;
}

export function applyMatch(
  trading: TradingContext,
  valid: ValidOrder,
  order: Order,
  result: MatchResult,
): void {
  const { state } = trading.context;
  // Indexed loops: for-of here left an iterator result per fill to the collector (2026-11-26).
  const { fills, makersCancelled } = result;
  for (let index = 0; index < fills.length; index += 1)
    settleFill(trading, valid.instrument, order, fills[index] as Fill);
  for (let index = 0; index < makersCancelled.length; index += 1) {
    const cancelled = makersCancelled[index] as MakerCancellation;
    const maker = state.orders.get(cancelled.orderId);
    // The matcher already took the maker out of the book; cancelOpenOrder's remove is a no-op.
    if (maker) cancelOpenOrder(trading, maker, 'stp_cancel');
  }
  if (result.takerRestingLots > 0) {
    rest(trading, order);
    return;
  }
  if (result.takerCancelledReason) {
    transition(order, 'cancelled');
    order.cancelReason = CANCEL_REASONS[result.takerCancelledReason];
  } else if (order.status !== 'filled') {
    // A market buy by amount is done when its budget cannot buy another lot.
    transition(order, 'filled');
  }
  releaseOrder(trading, order);
  touch(trading, order);
}
