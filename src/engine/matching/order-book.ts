// The order book: resting limit orders of one instrument, in price-time priority.
//
// Invariants every implementation keeps (test/engine/matching/order-book.contract.ts checks them):
// - Within a price level, orders are in arrival order: `add` appends at the tail and nothing
//   but `remove` (and `reduce` to zero) takes an order out; `reduce` and `reduceInPlace`
//   keep the order's place. Re-queueing (price change, size increase) is `requeue`, which is
//   remove + add with a fresh sequence done without giving up the record.
// - `best`, `iterate` and `depth` go best first: highest bid, lowest ask.
// - Every resting order has remainingLots >= 1; price and lots are safe integers.
// - The book owns its records: `add` copies the order. Records handed out by `get`, `best`
//   and `iterate` are live, read-only views, valid until the next mutation; `remove` hands
//   back the detached record.
// - Misuse (duplicate id, non-integer or non-positive quantities, over-reduction) is a bug in
//   the caller and throws; a missing order id is an ordinary outcome and yields undefined.
// The book does not know about matching: it will hold a crossed book if told to. The matcher
// is what keeps it uncrossed.

import type { BookLevel, RestingOrder, Side } from './types.ts';

export interface OrderBook {
  readonly orderCount: number;
  /** Appends a copy of `order` at the tail of its price level. */
  add(order: RestingOrder): void;
  remove(orderId: string): RestingOrder | undefined;
  get(orderId: string): Readonly<RestingOrder> | undefined;
  /** Decrements remaining lots (a fill), keeping priority; removes at zero. Returns lots left. */
  reduce(orderId: string, lots: number): number | undefined;
  /** Sets a smaller positive remaining quantity, keeping priority (venue: size decrease). */
  reduceInPlace(orderId: string, remainingLots: number): Readonly<RestingOrder> | undefined;
  /**
   * Moves the order to the tail of the level at `priceTicks` with a new size and sequence (it
   * loses its place), exactly as remove + add would. Does not match: the caller checks first
   * that the new price does not cross. Returns the updated record.
   */
  requeue(
    orderId: string,
    priceTicks: number,
    remainingLots: number,
    sequence: number,
  ): Readonly<RestingOrder> | undefined;
  /** Head of the best level of `side`. */
  best(side: Side): Readonly<RestingOrder> | undefined;
  bestPriceTicks(side: Side): number | undefined;
  depth(side: Side, maxLevels: number): BookLevel[];
  /** Best first, time priority within a level. Do not mutate the book while iterating. */
  iterate(side: Side): IterableIterator<Readonly<RestingOrder>>;
  /** Plain copies: bids best first, then asks best first; re-adding them in order rebuilds the book. */
  restingOrders(): RestingOrder[];
}

export type OrderBookFactory = () => OrderBook;

/** Throws on orders no caller should ever produce. */
export function assertValidRestingOrder(order: RestingOrder): void {
  assertValidPriceAndLots(order.priceTicks, order.remainingLots);
  if (order.side !== 'buy' && order.side !== 'sell') {
    throw new RangeError(`side must be buy or sell: ${String(order.side)}`);
  }
}

export function assertValidPriceAndLots(priceTicks: number, remainingLots: number): void {
  if (!Number.isSafeInteger(priceTicks)) {
    throw new RangeError(`priceTicks must be a safe integer: ${priceTicks}`);
  }
  if (!Number.isSafeInteger(remainingLots) || remainingLots < 1) {
    throw new RangeError(`remainingLots must be a positive safe integer: ${remainingLots}`);
  }
}

export function assertValidReduction(remainingLots: number, lots: number): void {
  if (!Number.isSafeInteger(lots) || lots < 1 || lots > remainingLots) {
    throw new RangeError(`cannot reduce ${remainingLots} lots by ${lots}`);
  }
}

export function assertValidInPlaceReduction(remainingLots: number, newRemainingLots: number): void {
  if (!Number.isSafeInteger(newRemainingLots) || newRemainingLots < 1 || newRemainingLots > remainingLots) {
    throw new RangeError(`cannot reduce ${remainingLots} lots in place to ${newRemainingLots}`);
  }
}

export function copyRestingOrder(order: Readonly<RestingOrder>): RestingOrder {
  return {
    orderId: order.orderId,
    ownerId: order.ownerId,
    side: order.side,
    priceTicks: order.priceTicks,
    remainingLots: order.remainingLots,
    sequence: order.sequence,
    stpMode: order.stpMode,
  };
}
