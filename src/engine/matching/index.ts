// Public surface of the matching core: the book, the matcher, amendments and the state hash.
// Everything here is pure and synchronous; see docs/matching.md.

export type { OrderBook, OrderBookFactory } from './order-book.ts';
export { createFastOrderBook } from './fast-order-book.ts';
export { createReferenceOrderBook } from './reference-order-book.ts';
export { match, wouldTakeLiquidity } from './matcher.ts';
export { amend, type AmendRequest, type AmendResult } from './amend.ts';
export { stateHash } from './book-hash.ts';
export {
  oppositeSide,
  type BookLevel,
  type Fill,
  type MakerCancellation,
  type MatchResult,
  type QuoteOf,
  type RestingOrder,
  type Side,
  type StpMode,
  type TakerCancelReason,
  type TakerOrder,
  type TimeInForce,
} from './types.ts';
