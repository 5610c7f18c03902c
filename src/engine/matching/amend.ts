// Amending a resting order (v3 modify-order; v2 cancel-and-replace reaches the same book state).
//
// Queue priority: a size decrease at the same price keeps the order's
// place; a price change or a size increase re-queues it at the back with the caller's fresh
// sequence. An amendment whose new price crosses the spread is matched as a limit taker
// first, so it trades; a post-only order is instead rejected and left exactly as it was.
// Quantities here are *remaining* lots: the caller subtracts what has already filled.
// What the order remembers of itself (owner, side, STP mode) is carried over unchanged.
// The common case — a re-queue that does not cross — moves the record inside the book
// (`requeue`) without building a taker, which is what keeps modify-heavy flow cheap.

import { match, noCancellations, noFills, wouldTakeLiquidity } from './matcher.ts';
import type { OrderBook } from './order-book.ts';
import type { MatchResult, QuoteOf, RestingOrder } from './types.ts';

export interface AmendRequest {
  orderId: string;
  priceTicks: number;
  remainingLots: number;
  /** Sequence the order takes if it is re-queued. */
  sequence: number;
  /** The order's own time in force; a post-only order never takes liquidity when amended. */
  timeInForce: 'gtc' | 'post_only';
  quoteOf: QuoteOf;
}

export type AmendResult =
  | { outcome: 'not_found' }
  | { outcome: 'unchanged'; order: Readonly<RestingOrder> }
  | { outcome: 'rejected'; reason: 'post_only_would_take' }
  | { outcome: 'reduced_in_place'; order: Readonly<RestingOrder>; previousRemainingLots: number }
  | {
      outcome: 'requeued';
      previousPriceTicks: number;
      previousRemainingLots: number;
      /** The re-queued order as a taker: fills if it crossed, takerRestingLots if it rests. */
      match: MatchResult;
    };

export function amend(book: OrderBook, request: AmendRequest): AmendResult {
  const current = book.get(request.orderId);
  if (current === undefined) return { outcome: 'not_found' };
  const { priceTicks, remainingLots } = request;
  if (!Number.isSafeInteger(remainingLots) || remainingLots < 1) {
    throw new RangeError(`amend ${request.orderId}: remainingLots must be a positive safe integer`);
  }
  const previousPriceTicks = current.priceTicks;
  const previousRemainingLots = current.remainingLots;
  if (priceTicks === previousPriceTicks && remainingLots <= previousRemainingLots) {
    if (remainingLots === previousRemainingLots) return { outcome: 'unchanged', order: current };
    book.reduceInPlace(request.orderId, remainingLots);
    return { outcome: 'reduced_in_place', order: current, previousRemainingLots };
  }
  if (!wouldTakeLiquidity(book, current.side, priceTicks)) {
    book.requeue(request.orderId, priceTicks, remainingLots, request.sequence);
    return { outcome: 'requeued', previousPriceTicks, previousRemainingLots, match: rested(remainingLots) };
  }
  if (request.timeInForce === 'post_only') return { outcome: 'rejected', reason: 'post_only_would_take' };
  const previous = book.remove(request.orderId) as RestingOrder;
  const result = match(book, {
    orderId: previous.orderId,
    ownerId: previous.ownerId,
    side: previous.side,
    kind: 'limit',
    priceTicks,
    lots: remainingLots,
    quoteOf: request.quoteOf,
    timeInForce: 'gtc',
    stpMode: previous.stpMode,
    sequence: request.sequence,
  });
  return { outcome: 'requeued', previousPriceTicks, previousRemainingLots, match: result };
}

function rested(lots: number): MatchResult {
  return {
    fills: noFills,
    makersCancelled: noCancellations,
    takerRestingLots: lots,
    takerCancelledReason: undefined,
    takerFilledLots: 0,
    takerQuoteSpent: 0n,
  };
}
