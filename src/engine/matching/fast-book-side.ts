// One side of the fast order book: price levels with intrusive FIFO lists, plus a sorted array.
//
// Invariants:
// - `sortedLevels` holds exactly the non-empty levels of this side; `levelByPrice` holds them
//   and up to MAX_EMPTY_LEVELS empty ones (orderCount 0, in no list and not in the pool). A
//   level that empties stays in the map: the price is often quoted again soon (the touch
//   empties and refills), and deleting a Map's last entries makes V8 shrink its table, a
//   runtime call and a new table each time (nearly all of closing a level on a book that
//   empties, 2026-11-26). When the budget is spent the empty ones all leave at once.
// - `sortedLevels` is ordered worst first, best last, so the best level is the last element:
//   taking it out (the common case when a taker sweeps) is a pop, and new levels near the
//   touch, where most flow arrives, shift only a few elements.
// - A level's `totalLots` and `orderCount` equal the sums over its list.
// - Levels and list nodes are pooled: they never escape the book (callers only see
//   `node.order`), so re-using them keeps the modify-heavy hot path free of allocation
//   beyond the order record itself.

import type { RestingOrder } from './types.ts';

/** Empty levels a side keeps in its price map (see the invariants above). */
const MAX_EMPTY_LEVELS = 256;

export class OrderNode {
  order: RestingOrder;
  previous: OrderNode | undefined = undefined;
  next: OrderNode | undefined = undefined;
  level: PriceLevel | undefined = undefined;

  constructor(order: RestingOrder) {
    this.order = order;
  }
}

export class PriceLevel {
  priceTicks = 0;
  head: OrderNode | undefined = undefined;
  tail: OrderNode | undefined = undefined;
  totalLots = 0;
  orderCount = 0;
}

export class FastBookSide {
  readonly isBid: boolean;
  readonly sortedLevels: PriceLevel[] = [];
  private readonly levelByPrice = new Map<number, PriceLevel>();
  private readonly levelPool: PriceLevel[] = [];
  /** Empty levels kept in `levelByPrice`. */
  private emptyLevels = 0;

  constructor(isBid: boolean) {
    this.isBid = isBid;
  }

  bestLevel(): PriceLevel | undefined {
    return this.sortedLevels[this.sortedLevels.length - 1];
  }

  append(node: OrderNode): void {
    const order = node.order;
    let level = this.levelByPrice.get(order.priceTicks);
    if (level === undefined) level = this.openLevel(order.priceTicks);
    else if (level.orderCount === 0) this.reopen(level);
    node.level = level;
    node.previous = level.tail;
    node.next = undefined;
    if (level.tail === undefined) level.head = node;
    else level.tail.next = node;
    level.tail = node;
    level.totalLots += order.remainingLots;
    level.orderCount += 1;
  }

  unlink(node: OrderNode): void {
    const level = node.level as PriceLevel;
    if (node.previous === undefined) level.head = node.next;
    else node.previous.next = node.next;
    if (node.next === undefined) level.tail = node.previous;
    else node.next.previous = node.previous;
    level.totalLots -= node.order.remainingLots;
    level.orderCount -= 1;
    node.previous = undefined;
    node.next = undefined;
    node.level = undefined;
    if (level.orderCount === 0) this.closeLevel(level);
  }

  private openLevel(priceTicks: number): PriceLevel {
    const level = this.levelPool.pop() ?? new PriceLevel();
    level.priceTicks = priceTicks;
    this.levelByPrice.set(priceTicks, level);
    this.enlist(level);
    return level;
  }

  /** An empty level kept in the map takes orders again. */
  private reopen(level: PriceLevel): void {
    this.emptyLevels -= 1;
    this.enlist(level);
  }

  private enlist(level: PriceLevel): void {
    const levels = this.sortedLevels;
    const index = this.insertionIndex(level.priceTicks);
    if (index === levels.length) levels.push(level);
    else levels.splice(index, 0, level);
  }

  private closeLevel(level: PriceLevel): void {
    const levels = this.sortedLevels;
    if (levels[levels.length - 1] === level) levels.pop();
    else levels.splice(this.insertionIndex(level.priceTicks) - 1, 1);
    level.head = undefined;
    level.tail = undefined;
    level.totalLots = 0;
    // Dropping takes this level too (it is empty): then none is kept.
    if (this.emptyLevels === MAX_EMPTY_LEVELS) this.dropEmptyLevels();
    else this.emptyLevels += 1;
  }

  /** Every empty level leaves the map for the pool. */
  private dropEmptyLevels(): void {
    for (const [priceTicks, level] of this.levelByPrice) {
      if (level.orderCount > 0) continue;
      this.levelByPrice.delete(priceTicks);
      this.levelPool.push(level);
    }
    this.emptyLevels = 0;
  }

  /** First index whose level ranks strictly better than `priceTicks` (rank: bids up, asks down). */
  private insertionIndex(priceTicks: number): number {
    const levels = this.sortedLevels;
    const isBid = this.isBid;
    let low = 0;
    let high = levels.length;
    // Most activity is at the touch: check the best end first before bisecting.
    const best = levels[high - 1];
    if (best !== undefined && (isBid ? best.priceTicks <= priceTicks : best.priceTicks >= priceTicks)) {
      return high;
    }
    while (low < high) {
      const middle = (low + high) >>> 1;
      const middlePrice = (levels[middle] as PriceLevel).priceTicks;
      const isBetter = isBid ? middlePrice > priceTicks : middlePrice < priceTicks;
      if (isBetter) high = middle;
      else low = middle + 1;
    }
    return low;
  }
}
