// The matcher: one taker against the book, price-time priority, with time in force and STP.
//
// Semantics (docs/matching.md has the long form and the venue sources):
// - A buy takes asks priced <= its limit, a sell takes bids priced >= its limit; every fill is
//   at the maker's price. Makers are taken strictly best first, oldest first within a level.
// - gtc: the remainder rests (added by the matcher, with the taker's sequence). ioc: the
//   remainder is cancelled. fok: a dry run first (depth within the limit, STP included); if
//   the whole quantity cannot fill, nothing happens. post_only: if it would take anything it
//   is rejected whole, book untouched (never repriced) — even when the crossing maker is the
//   taker's own order.
// - Market orders ignore timeInForce and never rest. `lots` caps base quantity, `quoteBudget`
//   caps quote spent (whole lots only: the first lot that would overrun the budget stops the
//   order), `priceTicks` is an optional protection bound (the venue's band price).
// - STP applies when the taker's stpMode is not 'none' and a maker has the same ownerId; the
//   maker's own mode is ignored. cancel_taker: the taker's unfilled rest is cancelled, maker
//   stays. cancel_maker: that maker is cancelled and matching goes on. cancel_both: both.
//   Fills made before the conflict stand.
// - takerCancelledReason is absent exactly when the taker is done: fully filled, resting, or
//   (market buy by budget) stopped because its budget cannot buy one more lot after filling
//   something. Zero fills always carries a reason.
// - A taker whose id is already resting is a caller bug and throws before anything changes.
// Pure and deterministic. Allocation per call: the sweep state and the result, plus one entry
// per fill or maker cancellation (arrays created on first use) and the record of a resting
// remainder — nothing per price level visited.

import type { OrderBook } from './order-book.ts';
import {
  oppositeSide,
  type Fill,
  type MakerCancellation,
  type MatchResult,
  type QuoteOf,
  type RestingOrder,
  type TakerCancelReason,
  type TakerOrder,
} from './types.ts';

export const noFills: readonly Fill[] = Object.freeze([]);
export const noCancellations: readonly MakerCancellation[] = Object.freeze([]);

type SweepStop = 'filled' | 'exhausted' | 'stp' | 'budget';

/** Running state of one sweep; `quote` is the quote of the lots chosen by `lotsToTake`. */
class Sweep {
  fills: Fill[] | undefined = undefined;
  makersCancelled: MakerCancellation[] | undefined = undefined;
  filledLots = 0;
  quoteSpent = 0n;
  stop: SweepStop = 'exhausted';
  quote = 0n;
  remainingLots: number;
  remainingBudget: bigint | undefined;

  constructor(maxLots: number, quoteBudget: bigint | undefined) {
    this.remainingLots = maxLots;
    this.remainingBudget = quoteBudget;
  }

  /** Lots to take from `maker` (0: the budget cannot buy one); marks a budget-bound take. */
  lotsToTake(taker: TakerOrder, maker: Readonly<RestingOrder>): number {
    const lots = this.remainingLots < maker.remainingLots ? this.remainingLots : maker.remainingLots;
    this.quote = taker.quoteOf(maker.priceTicks, lots);
    const budget = this.remainingBudget;
    if (budget === undefined || this.quote <= budget) return lots;
    this.stop = 'budget';
    const affordable = affordableLots(taker.quoteOf, maker.priceTicks, lots, budget);
    if (affordable > 0) this.quote = taker.quoteOf(maker.priceTicks, affordable);
    return affordable;
  }

  fill(book: OrderBook, taker: TakerOrder, maker: Readonly<RestingOrder>, lots: number): void {
    (this.fills ??= []).push({
      makerOrderId: maker.orderId,
      makerOwnerId: maker.ownerId,
      takerOrderId: taker.orderId,
      priceTicks: maker.priceTicks,
      lots,
      quote: this.quote,
    });
    book.reduce(maker.orderId, lots);
    this.remainingLots -= lots;
    if (this.remainingBudget !== undefined) this.remainingBudget -= this.quote;
    this.filledLots += lots;
    this.quoteSpent += this.quote;
  }

  cancelMaker(book: OrderBook, maker: Readonly<RestingOrder>): void {
    (this.makersCancelled ??= []).push({
      orderId: maker.orderId,
      ownerId: maker.ownerId,
      remainingLots: maker.remainingLots,
      reason: 'stp',
    });
    book.remove(maker.orderId);
  }
}

export function match(book: OrderBook, taker: TakerOrder): MatchResult {
  assertValidTaker(taker);
  return taker.kind === 'limit' ? matchLimit(book, taker) : matchMarket(book, taker);
}

function matchLimit(book: OrderBook, taker: TakerOrder): MatchResult {
  const priceTicks = taker.priceTicks as number;
  const lots = taker.lots as number;
  if (book.get(taker.orderId) !== undefined) throw new Error(`taker ${taker.orderId} is already resting`);
  if (taker.timeInForce === 'post_only' && wouldTakeLiquidity(book, taker.side, priceTicks)) {
    return rejected('post_only_would_take');
  }
  if (taker.timeInForce === 'fok' && !canFillCompletely(book, taker, priceTicks, lots)) {
    return rejected('fok_unfillable');
  }
  const sweep = sweepBook(book, taker, priceTicks, lots, undefined);
  const remainderLots = lots - sweep.filledLots;
  let restingLots = 0;
  let reason: TakerCancelReason | undefined;
  if (sweep.stop === 'stp') reason = 'stp';
  else if (remainderLots > 0) {
    if (taker.timeInForce === 'ioc') reason = 'ioc_remainder';
    else if (taker.timeInForce === 'fok') throw new Error('fok taker left a remainder after its dry run');
    else {
      book.add({
        orderId: taker.orderId,
        ownerId: taker.ownerId,
        side: taker.side,
        priceTicks,
        remainingLots: remainderLots,
        sequence: taker.sequence,
        stpMode: taker.stpMode,
      });
      restingLots = remainderLots;
    }
  }
  return result(sweep, restingLots, reason);
}

function matchMarket(book: OrderBook, taker: TakerOrder): MatchResult {
  const sweep = sweepBook(book, taker, taker.priceTicks, taker.lots ?? Infinity, taker.quoteBudget);
  let reason: TakerCancelReason | undefined;
  if (sweep.stop === 'stp') reason = 'stp';
  // A budget spent to the last unit by the last level is filled, not a remainder.
  else if (sweep.stop === 'exhausted' && sweep.remainingBudget !== 0n)
    reason = sweep.filledLots === 0 ? 'no_liquidity' : 'market_remainder';
  else if (sweep.stop === 'budget' && sweep.filledLots === 0) reason = 'market_remainder';
  return result(sweep, 0, reason);
}

/** Takes liquidity best first until the taker is filled, the book runs out or STP/budget stops it. */
function sweepBook(
  book: OrderBook,
  taker: TakerOrder,
  limitPriceTicks: number | undefined,
  maxLots: number,
  quoteBudget: bigint | undefined,
): Sweep {
  const makerSide = oppositeSide(taker.side);
  const isBuy = taker.side === 'buy';
  const isStpActive = taker.stpMode !== 'none';
  const sweep = new Sweep(maxLots, quoteBudget);
  while (sweep.remainingLots > 0) {
    const maker = book.best(makerSide);
    if (maker === undefined) break;
    const priceTicks = maker.priceTicks;
    if (
      limitPriceTicks !== undefined &&
      (isBuy ? priceTicks > limitPriceTicks : priceTicks < limitPriceTicks)
    )
      break;
    if (isStpActive && maker.ownerId === taker.ownerId) {
      if (taker.stpMode !== 'cancel_taker') sweep.cancelMaker(book, maker);
      if (taker.stpMode === 'cancel_maker') continue;
      sweep.stop = 'stp';
      return sweep;
    }
    const lots = sweep.lotsToTake(taker, maker);
    if (lots > 0) sweep.fill(book, taker, maker, lots);
    if (sweep.stop === 'budget') return sweep;
  }
  if (sweep.remainingLots === 0) sweep.stop = 'filled';
  return sweep;
}

/** Largest n < lots with quoteOf(price, n) <= budget, given quoteOf(price, lots) > budget. */
function affordableLots(quoteOf: QuoteOf, priceTicks: number, lots: number, budget: bigint): number {
  let low = 0;
  let high = lots - 1;
  while (low < high) {
    const middle = low + Math.ceil((high - low) / 2);
    if (quoteOf(priceTicks, middle) <= budget) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** FOK dry run: walks the book as the sweep would, without touching it. */
function canFillCompletely(
  book: OrderBook,
  taker: TakerOrder,
  limitPriceTicks: number,
  lots: number,
): boolean {
  const isBuy = taker.side === 'buy';
  let availableLots = 0;
  for (const maker of book.iterate(oppositeSide(taker.side))) {
    if (isBuy ? maker.priceTicks > limitPriceTicks : maker.priceTicks < limitPriceTicks) return false;
    if (taker.stpMode !== 'none' && maker.ownerId === taker.ownerId) {
      if (taker.stpMode === 'cancel_maker') continue;
      return false;
    }
    availableLots += maker.remainingLots;
    if (availableLots >= lots) return true;
  }
  return false;
}

/** Whether a limit order at `priceTicks` on `side` would take liquidity right now. */
export function wouldTakeLiquidity(book: OrderBook, side: TakerOrder['side'], priceTicks: number): boolean {
  const bestOpposite = book.bestPriceTicks(oppositeSide(side));
  if (bestOpposite === undefined) return false;
  return side === 'buy' ? bestOpposite <= priceTicks : bestOpposite >= priceTicks;
}

function rejected(reason: TakerCancelReason): MatchResult {
  return {
    fills: noFills,
    makersCancelled: noCancellations,
    takerRestingLots: 0,
    takerCancelledReason: reason,
    takerFilledLots: 0,
    takerQuoteSpent: 0n,
  };
}

function result(sweep: Sweep, restingLots: number, reason: TakerCancelReason | undefined): MatchResult {
  return {
    fills: sweep.fills ?? noFills,
    makersCancelled: sweep.makersCancelled ?? noCancellations,
    takerRestingLots: restingLots,
    takerCancelledReason: reason,
    takerFilledLots: sweep.filledLots,
    takerQuoteSpent: sweep.quoteSpent,
  };
}

/** Malformed takers are bugs upstream (validation happens at the edge), so they throw. */
function assertValidTaker(taker: TakerOrder): void {
  if (taker.priceTicks !== undefined && !Number.isSafeInteger(taker.priceTicks)) {
    throw new RangeError(`taker ${taker.orderId}: priceTicks must be a safe integer`);
  }
  if (taker.kind === 'limit') {
    if (taker.priceTicks === undefined || !isPositiveLots(taker.lots) || taker.quoteBudget !== undefined) {
      throw new RangeError(`limit taker ${taker.orderId} needs priceTicks and positive lots, no quoteBudget`);
    }
    return;
  }
  if (taker.lots === undefined && taker.quoteBudget === undefined) {
    throw new RangeError(`market taker ${taker.orderId} needs lots or quoteBudget`);
  }
  if ((taker.lots !== undefined && !isPositiveLots(taker.lots)) || (taker.quoteBudget ?? 1n) <= 0n) {
    throw new RangeError(`market taker ${taker.orderId}: lots and quoteBudget must be positive`);
  }
}

function isPositiveLots(lots: number | undefined): boolean {
  return lots !== undefined && Number.isSafeInteger(lots) && lots > 0;
}
