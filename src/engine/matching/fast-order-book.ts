// Fast order book: a Map from order id to an intrusive list node, and per side a Map from price
// to level plus a sorted array of levels (see fast-book-side.ts for the layout and its invariants).
//
// Costs, for L levels on a side: add O(1) at an existing level, O(log L) + a short shift for a
// new level; remove and reduce O(1) unless the level empties (then as a new level); best O(1).
// Sized for books of around a thousand orders with a modify-heavy flow; the nodes and levels
// are pooled, so steady-state churn allocates only the order record that `add` copies.

import { FastBookSide, OrderNode, type PriceLevel } from './fast-book-side.ts';
import {
  assertValidInPlaceReduction,
  assertValidPriceAndLots,
  assertValidReduction,
  assertValidRestingOrder,
  copyRestingOrder,
  type OrderBook,
} from './order-book.ts';
import type { BookLevel, RestingOrder, Side } from './types.ts';

export function createFastOrderBook(): OrderBook {
  return new FastOrderBook();
}

class FastOrderBook implements OrderBook {
  private readonly nodeByOrderId = new Map<string, OrderNode>();
  private readonly bids = new FastBookSide(true);
  private readonly asks = new FastBookSide(false);
  private readonly nodePool: OrderNode[] = [];

  get orderCount(): number {
    return this.nodeByOrderId.size;
  }

  add(order: RestingOrder): void {
    assertValidRestingOrder(order);
    if (this.nodeByOrderId.has(order.orderId)) throw new Error(`duplicate order id ${order.orderId}`);
    const record = copyRestingOrder(order);
    const pooled = this.nodePool.pop();
    const node = pooled ?? new OrderNode(record);
    node.order = record;
    this.nodeByOrderId.set(record.orderId, node);
    this.sideOf(record.side).append(node);
  }

  remove(orderId: string): RestingOrder | undefined {
    const node = this.nodeByOrderId.get(orderId);
    if (node === undefined) return undefined;
    return this.detach(node);
  }

  get(orderId: string): Readonly<RestingOrder> | undefined {
    return this.nodeByOrderId.get(orderId)?.order;
  }

  reduce(orderId: string, lots: number): number | undefined {
    const node = this.nodeByOrderId.get(orderId);
    if (node === undefined) return undefined;
    const order = node.order;
    assertValidReduction(order.remainingLots, lots);
    if (lots === order.remainingLots) {
      this.detach(node);
      order.remainingLots = 0;
      return 0;
    }
    order.remainingLots -= lots;
    (node.level as PriceLevel).totalLots -= lots;
    return order.remainingLots;
  }

  reduceInPlace(orderId: string, remainingLots: number): Readonly<RestingOrder> | undefined {
    const node = this.nodeByOrderId.get(orderId);
    if (node === undefined) return undefined;
    const order = node.order;
    assertValidInPlaceReduction(order.remainingLots, remainingLots);
    (node.level as PriceLevel).totalLots -= order.remainingLots - remainingLots;
    order.remainingLots = remainingLots;
    return order;
  }

  requeue(
    orderId: string,
    priceTicks: number,
    remainingLots: number,
    sequence: number,
  ): Readonly<RestingOrder> | undefined {
    const node = this.nodeByOrderId.get(orderId);
    if (node === undefined) return undefined;
    assertValidPriceAndLots(priceTicks, remainingLots);
    const order = node.order;
    const side = this.sideOf(order.side);
    side.unlink(node);
    order.priceTicks = priceTicks;
    order.remainingLots = remainingLots;
    order.sequence = sequence;
    side.append(node);
    return order;
  }

  best(side: Side): Readonly<RestingOrder> | undefined {
    return this.sideOf(side).bestLevel()?.head?.order;
  }

  bestPriceTicks(side: Side): number | undefined {
    return this.sideOf(side).bestLevel()?.priceTicks;
  }

  depth(side: Side, maxLevels: number): BookLevel[] {
    const levels = this.sideOf(side).sortedLevels;
    const result: BookLevel[] = [];
    for (let index = levels.length - 1; index >= 0 && result.length < maxLevels; index -= 1) {
      const level = levels[index] as PriceLevel;
      result.push({ priceTicks: level.priceTicks, lots: level.totalLots, orders: level.orderCount });
    }
    return result;
  }

  *iterate(side: Side): IterableIterator<Readonly<RestingOrder>> {
    const levels = this.sideOf(side).sortedLevels;
    for (let index = levels.length - 1; index >= 0; index -= 1) {
      for (let node = (levels[index] as PriceLevel).head; node !== undefined; node = node.next) {
        yield node.order;
      }
    }
  }

  restingOrders(): RestingOrder[] {
    const orders: RestingOrder[] = [];
    for (const order of this.iterate('buy')) orders.push(copyRestingOrder(order));
    for (const order of this.iterate('sell')) orders.push(copyRestingOrder(order));
    return orders;
  }

  private detach(node: OrderNode): RestingOrder {
    const order = node.order;
    this.sideOf(order.side).unlink(node);
    this.nodeByOrderId.delete(order.orderId);
    this.nodePool.push(node);
    return order;
  }

  private sideOf(side: Side): FastBookSide {
    return side === 'buy' ? this.bids : this.asks;
  }
}
