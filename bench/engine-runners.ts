// The two engines under test, each behind the same tiny interface so one loop times both.
//
// Ours: the fast book plus the matcher, modify through `amend` (keeps priority on a size
// decrease, otherwise re-queues and re-matches). Peer: nodejs-order-book's OrderBook with
// limit / market / cancel / modify (its modify always cancels and re-creates the order).

import { OrderBook as PeerOrderBook, Side as PeerSide } from 'nodejs-order-book';
import { createFastOrderBook } from '../src/engine/matching/fast-order-book.ts';
import type { OrderBook } from '../src/engine/matching/order-book.ts';
import { applyOurs, opCancel, opLimit, opMarket, type BenchOp } from './engine-stream.ts';

export interface EngineUnderTest {
  /** Returns false when the op named an order the engine does not hold. */
  apply(op: BenchOp): boolean;
  restingOrderCount(): number;
}

export function createOurEngine(): EngineUnderTest {
  const book: OrderBook = createFastOrderBook();
  let sequence = 0;
  return {
    apply: (op) => applyOurs(book, op, ++sequence),
    restingOrderCount: () => book.orderCount,
  };
}

export function createPeerEngine(): EngineUnderTest {
  const book = new PeerOrderBook();
  const sideOf = (op: BenchOp) => (op.side === 'buy' ? PeerSide.BUY : PeerSide.SELL);
  return {
    apply(op) {
      switch (op.kind) {
        case opLimit:
          book.limit({ id: op.orderId, side: sideOf(op), size: op.lots, price: op.priceTicks });
          return true;
        case opMarket:
          book.market({ side: sideOf(op), size: op.lots });
          return true;
        case opCancel:
          return book.cancel(op.orderId) !== undefined;
        default:
          return book.modify(op.orderId, { price: op.priceTicks, size: op.lots }).err === null;
      }
    },
    restingOrderCount() {
      const snapshot = book.snapshot();
      let count = 0;
      for (const level of [...snapshot.asks, ...snapshot.bids]) count += level.orders.length;
      return count;
    },
  };
}
