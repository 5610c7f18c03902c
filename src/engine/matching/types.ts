// Vocabulary of the matching core: resting orders, takers, fills and match results.
//
// Units: prices are integer ticks and quantities integer lots of the instrument (JS numbers,
// safe integers); money (quote value, budgets) is bigint in the caller's minor unit. The core
// never converts between them itself: the caller supplies `quoteOf`, so rounding of notional
// stays a decision of the instrument layer and is applied the same way for every fill.

export type Side = 'buy' | 'sell';
export type TimeInForce = 'gtc' | 'ioc' | 'fok' | 'post_only';
export type StpMode = 'none' | 'cancel_taker' | 'cancel_maker' | 'cancel_both';

/** An order at rest in the book. `sequence` is assigned by the caller and only carried as data. */
export interface RestingOrder {
  orderId: string;
  ownerId: string;
  side: Side;
  priceTicks: number;
  remainingLots: number;
  sequence: number;
  stpMode: StpMode;
}

/** Exact quote value of `lots` at `priceTicks`, in money units; must be non-decreasing in lots. */
export type QuoteOf = (priceTicks: number, lots: number) => bigint;

export interface TakerOrder {
  orderId: string;
  ownerId: string;
  side: Side;
  kind: 'limit' | 'market';
  /** Limit: the limit price. Market: optional protection bound (the venue's band price). */
  priceTicks?: number;
  /** Limit (required) and market: base quantity. */
  lots?: number;
  /** Market only: spend at most this much quote (spot market buy); whole lots only. */
  quoteBudget?: bigint;
  quoteOf: QuoteOf;
  /** Ignored for market orders, which always behave as IOC. */
  timeInForce: TimeInForce;
  stpMode: StpMode;
  /** Time priority of the remainder if it rests. */
  sequence: number;
}

export interface Fill {
  makerOrderId: string;
  makerOwnerId: string;
  takerOrderId: string;
  /** Always the maker's price. */
  priceTicks: number;
  lots: number;
  quote: bigint;
}

export interface MakerCancellation {
  orderId: string;
  ownerId: string;
  remainingLots: number;
  reason: 'stp';
}

export type TakerCancelReason =
  'ioc_remainder' | 'fok_unfillable' | 'post_only_would_take' | 'stp' | 'market_remainder' | 'no_liquidity';

export interface MatchResult {
  /** In execution order. Shared empty array when there are none: treat as read-only. */
  readonly fills: readonly Fill[];
  readonly makersCancelled: readonly MakerCancellation[];
  /** Lots of the taker added to the book (gtc / post_only remainder). */
  takerRestingLots: number;
  /** Set when part of the taker was neither filled nor rested; absent when the taker is done. */
  takerCancelledReason?: TakerCancelReason;
  takerFilledLots: number;
  takerQuoteSpent: bigint;
}

export interface BookLevel {
  priceTicks: number;
  lots: number;
  orders: number;
}

export function oppositeSide(side: Side): Side {
  return side === 'buy' ? 'sell' : 'buy';
}
