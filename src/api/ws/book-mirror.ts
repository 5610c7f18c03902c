/**
 * The order books as the durable event stream shows them: one mirror per instrument, fed
 * only by OrderUpdated events after they are durable (never by the engine's live books, which
 * may be a batch ahead). An order rests when it is a limit order, live or partially filled,
 * for qty − cumExecQty at its price — the rule Books.rebuild uses — so applying an order's
 * latest view is idempotent and the mirror equals the engine's books whenever memory equals
 * the store. Prices and sizes are ticks and lots, formatted with the instrument's own
 * functions, so the strings (and the checksum) are those of the REST depth.
 *
 * Each book counts a `seq` that grows by one per batch that changed it, and remembers the
 * levels changed since the last `takeChanges()` (the `books` channel's incremental update).
 */
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import type { OrderView } from '../../domain/order-view.ts';
import type { Order } from '../../domain/order.ts';
import {
  lotsToQuantity,
  priceToTicks,
  quantityToLots,
  ticksToPrice,
} from '../../engine/instruments/scales.ts';
import type { EngineState } from '../../engine/state.ts';
import type { Level } from '../../market/market-data.ts';

type Side = 'buy' | 'sell';

interface Resting {
  side: Side;
  ticks: number;
  lots: number;
}

/** Price levels of one side, kept sorted best first. */
class SideLevels {
  private readonly lotsAt = new Map<number, number>();
  private readonly prices: number[] = [];

  constructor(private readonly side: Side) {}

  /** Position of `ticks` in best-first order (bids descending, asks ascending). */
  private position(ticks: number): number {
    let low = 0;
    let high = this.prices.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const at = this.prices[middle] as number;
      const before = this.side === 'buy' ? at > ticks : at < ticks;
      if (before) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  change(ticks: number, deltaLots: number): void {
    const current = this.lotsAt.get(ticks) ?? 0;
    const next = current + deltaLots;
    if (current === 0 && next !== 0) this.prices.splice(this.position(ticks), 0, ticks);
    if (next === 0) {
      this.lotsAt.delete(ticks);
      if (current !== 0) this.prices.splice(this.position(ticks), 1);
    } else this.lotsAt.set(ticks, next);
  }

  lots(ticks: number): number {
    return this.lotsAt.get(ticks) ?? 0;
  }

  top(count: number): [number, number][] {
    return this.prices.slice(0, count).map((ticks) => [ticks, this.lotsAt.get(ticks) as number]);
  }

  get levelCount(): number {
    return this.prices.length;
  }
}

export interface BookLevels {
  bids: Level[];
  asks: Level[];
}

export class InstrumentBook {
  private readonly orders = new Map<string, Resting>();
  private readonly bids = new SideLevels('buy');
  private readonly asks = new SideLevels('sell');
  private changed = { buy: new Set<number>(), sell: new Set<number>() };
  /** Grows by one per batch that changed the book (see `closeBatch`). */
  seq = 0;
  private dirty = false;

  constructor(readonly key: string) {}

  private levels(side: Side): SideLevels {
    return side === 'buy' ? this.bids : this.asks;
  }

  /** Sets what order `orderId` rests (null: nothing). */
  set(orderId: string, resting: Resting | null): void {
    const before = this.orders.get(orderId);
    if (
      before &&
      resting &&
      before.side === resting.side &&
      before.ticks === resting.ticks &&
      before.lots === resting.lots
    )
      return;
    if (!before && !resting) return;
    if (before) {
      this.levels(before.side).change(before.ticks, -before.lots);
      this.changed[before.side].add(before.ticks);
      this.orders.delete(orderId);
    }
    if (resting) {
      this.levels(resting.side).change(resting.ticks, resting.lots);
      this.changed[resting.side].add(resting.ticks);
      this.orders.set(orderId, resting);
    }
    this.dirty = true;
  }

  /** Ends a batch: true (and seq + 1) when the book changed in it. */
  closeBatch(): boolean {
    if (!this.dirty) return false;
    this.dirty = false;
    this.seq += 1;
    return true;
  }

  /** The best `count` levels of each side, formatted. */
  top(instrument: Instrument, count: number): BookLevels {
    const format = (levels: [number, number][]): Level[] =>
      levels.map(([ticks, lots]) => [ticksToPrice(instrument, ticks), lotsToQuantity(instrument, lots)]);
    return { bids: format(this.bids.top(count)), asks: format(this.asks.top(count)) };
  }

  get depth(): number {
    return Math.max(this.bids.levelCount, this.asks.levelCount);
  }

  /** Levels changed since the last call, with their new size ("0" when gone), best first. */
  takeChanges(instrument: Instrument): BookLevels {
    const format = (side: Side): Level[] => {
      const ticks = [...this.changed[side]].sort((a, b) => (side === 'buy' ? b - a : a - b));
      return ticks.map((at) => {
        const lots = this.levels(side).lots(at);
        return [ticksToPrice(instrument, at), lots === 0 ? '0' : lotsToQuantity(instrument, lots)];
      });
    };
    const changes = { bids: format('buy'), asks: format('sell') };
    this.changed = { buy: new Set(), sell: new Set() };
    return changes;
  }

  /** Forgets pending changes (a fresh snapshot supersedes them). */
  clearChanges(): void {
    this.changed = { buy: new Set(), sell: new Set() };
  }
}

function restingOfView(instrument: Instrument, view: OrderView): Resting | null {
  if (view.orderType !== 'limit' || (view.status !== 'live' && view.status !== 'partially_filled'))
    return null;
  const ticks = priceToTicks(instrument, view.price);
  const ordered = quantityToLots(instrument, view.qty);
  const filled = quantityToLots(instrument, view.cumExecQty);
  if (typeof ticks !== 'number' || typeof ordered !== 'number' || typeof filled !== 'number') return null;
  if (ticks <= 0 || ordered - filled <= 0) return null;
  return { side: view.side === 'sell' ? 'sell' : 'buy', ticks, lots: ordered - filled };
}

function restingOfOrder(order: Order): Resting | null {
  if (order.orderType !== 'limit' || order.priceTicks <= 0) return null;
  const lots = order.quantityLots - order.filledLots;
  return lots > 0 ? { side: order.side, ticks: order.priceTicks, lots } : null;
}

export class BookMirror {
  private readonly books = new Map<string, InstrumentBook>();

  /** The book of an instrument key (`${category}:${symbol}`), created empty on first use. */
  of(key: string): InstrumentBook {
    let book = this.books.get(key);
    if (!book) {
      book = new InstrumentBook(key);
      this.books.set(key, book);
    }
    return book;
  }

  /** Applies an order's latest view; returns the book it touched (or null). */
  apply(state: EngineState, view: OrderView): InstrumentBook | null {
    const key = instrumentKey(view.category as Order['category'], view.symbol);
    const instrument = state.instruments.get(key);
    if (!instrument) return null;
    const book = this.of(key);
    book.set(view.orderId, restingOfView(instrument, view));
    return book;
  }

  /**
   * Rebuilds every book from the engine's open orders. Only valid when memory equals the
   * store (at start, or right after a batch with nothing queued behind it).
   */
  seed(state: EngineState): void {
    for (const book of this.books.values()) book.clearChanges();
    const seeded = new Map<string, InstrumentBook>();
    const open = [...state.orders.values()].sort((a, b) => a.sequence - b.sequence);
    for (const order of open) {
      const key = instrumentKey(order.category, order.symbol);
      let book = seeded.get(key);
      if (!book) {
        book = new InstrumentBook(key);
        book.seq = (this.books.get(key)?.seq ?? 0) + 1;
        seeded.set(key, book);
      }
      book.set(order.orderId, restingOfOrder(order));
    }
    for (const [key, book] of this.books) {
      if (!seeded.has(key)) {
        const empty = new InstrumentBook(key);
        empty.seq = book.seq + 1;
        seeded.set(key, empty);
      }
    }
    this.books.clear();
    for (const [key, book] of seeded) {
      book.closeBatch();
      book.clearChanges();
      this.books.set(key, book);
    }
  }
}
