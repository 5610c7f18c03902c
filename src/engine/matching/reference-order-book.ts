// Reference order book: one array per side kept in priority order, linear scans everywhere.
//
// It is meant to be obviously correct, not fast; the property test runs it in lockstep with
// the fast book and demands identical results. Priority order: better price first; at equal
// price, earlier arrival first (insertion goes after every order at an equal or better price).

import {
  assertValidInPlaceReduction,
  assertValidPriceAndLots,
  assertValidReduction,
  assertValidRestingOrder,
  copyRestingOrder,
  type OrderBook,
} from './order-book.ts';
import type { BookLevel, RestingOrder, Side } from './types.ts';

export function createReferenceOrderBook(): OrderBook {
  return new ReferenceOrderBook();
}

class ReferenceOrderBook implements OrderBook {
  private readonly bids: RestingOrder[] = [];
  private readonly asks: RestingOrder[] = [];

  get orderCount(): number {
    return this.bids.length + this.asks.length;
  }

  add(order: RestingOrder): void {
    assertValidRestingOrder(order);
    if (this.find(order.orderId) !== undefined) throw new Error(`duplicate order id ${order.orderId}`);
    const orders = this.sideOrders(order.side);
    const isBetterOrEqual =
      order.side === 'buy'
        ? (resting: RestingOrder) => resting.priceTicks >= order.priceTicks
        : (resting: RestingOrder) => resting.priceTicks <= order.priceTicks;
    let index = 0;
    while (index < orders.length && isBetterOrEqual(orders[index] as RestingOrder)) index += 1;
    orders.splice(index, 0, copyRestingOrder(order));
  }

  remove(orderId: string): RestingOrder | undefined {
    for (const orders of [this.bids, this.asks]) {
      const index = orders.findIndex((order) => order.orderId === orderId);
      if (index >= 0) return orders.splice(index, 1)[0];
    }
    return undefined;
  }

  get(orderId: string): Readonly<RestingOrder> | undefined {
    return this.find(orderId);
  }

  reduce(orderId: string, lots: number): number | undefined {
    const order = this.find(orderId);
    if (order === undefined) return undefined;
    assertValidReduction(order.remainingLots, lots);
    order.remainingLots -= lots;
    if (order.remainingLots === 0) this.remove(orderId);
    return order.remainingLots;
  }

  reduceInPlace(orderId: string, remainingLots: number): Readonly<RestingOrder> | undefined {
    const order = this.find(orderId);
    if (order === undefined) return undefined;
    assertValidInPlaceReduction(order.remainingLots, remainingLots);
    order.remainingLots = remainingLots;
    return order;
  }

  requeue(
    orderId: string,
    priceTicks: number,
    remainingLots: number,
    sequence: number,
  ): Readonly<RestingOrder> | undefined {
    if (this.find(orderId) === undefined) return undefined;
    assertValidPriceAndLots(priceTicks, remainingLots);
    const removed = this.remove(orderId) as RestingOrder;
    this.add({ ...removed, priceTicks, remainingLots, sequence });
    return this.find(orderId);
  }

  best(side: Side): Readonly<RestingOrder> | undefined {
    return this.sideOrders(side)[0];
  }

  bestPriceTicks(side: Side): number | undefined {
    return this.sideOrders(side)[0]?.priceTicks;
  }

  depth(side: Side, maxLevels: number): BookLevel[] {
    const levels: BookLevel[] = [];
    for (const order of this.sideOrders(side)) {
      const last = levels[levels.length - 1];
      if (last !== undefined && last.priceTicks === order.priceTicks) {
        last.lots += order.remainingLots;
        last.orders += 1;
      } else {
        if (levels.length === maxLevels) break;
        levels.push({ priceTicks: order.priceTicks, lots: order.remainingLots, orders: 1 });
      }
    }
    return levels;
  }

  *iterate(side: Side): IterableIterator<Readonly<RestingOrder>> {
    yield* this.sideOrders(side);
  }

  restingOrders(): RestingOrder[] {
    return [...this.bids, ...this.asks].map(copyRestingOrder);
  }

  private find(orderId: string): RestingOrder | undefined {
    return (
      this.bids.find((order) => order.orderId === orderId) ?? this.asks.find((o) => o.orderId === orderId)
    );
  }

  private sideOrders(side: Side): RestingOrder[] {
    return side === 'buy' ? this.bids : this.asks;
  }
}
