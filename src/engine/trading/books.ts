/**
 * One order book per (category, symbol). Books are derived state: they are rebuilt from the
 * open orders (in sequence order, which is their time priority) whenever an engine is made
 * from a snapshot, so the snapshot holds orders and never book internals.
 */
import type { Order } from '../../domain/order.ts';
import { createFastOrderBook, type OrderBook } from '../matching/index.ts';
import type { EngineState } from '../state.ts';

export class Books {
  private readonly books = new Map<string, OrderBook>();

  static rebuild(state: EngineState): Books {
    const books = new Books();
    const open = [...state.orders.values()].filter(
      (order) => order.priceTicks > 0 && order.orderType === 'limit',
    );
    open.sort((a, b) => a.sequence - b.sequence);
    for (const order of open)
      books.of(`${order.category}:${order.symbol}`).add(restingOf(order, stpOwner(state, order.uid)));
    return books;
  }

  of(instrumentKey: string): OrderBook {
    let book = this.books.get(instrumentKey);
    if (!book) {
      book = createFastOrderBook();
      this.books.set(instrumentKey, book);
    }
    return book;
  }

  peek(instrumentKey: string): OrderBook | undefined {
    return this.books.get(instrumentKey);
  }
}

/**
 * Who an order belongs to for self-trade prevention: the venue's scope is the account and its
 * linked sub-accounts, so sub-accounts share their main account's identity.
 */
export function stpOwner(state: EngineState, uid: string): string {
  return state.accounts.get(uid)?.parentUid ?? uid;
}

export function restingOf(order: Order, ownerId: string) {
  return {
    orderId: order.orderId,
    ownerId,
    side: order.side,
    priceTicks: order.priceTicks,
    remainingLots: order.quantityLots - order.filledLots,
    sequence: order.sequence,
    stpMode: order.stpMode,
  };
}
