/**
 * What one durable batch means for the pushes: events sorted by who and what they touch,
 * in the order they happened. Order rows remember the latest fill of their own command (the
 * engine reports an order after its fills), which the v2 `orders` row carries.
 */
import type { EngineEvent, FillView, PositionClosed, TradeRecorded } from '../../domain/events.ts';
import { instrumentKey } from '../../domain/instrument.ts';
import type { OrderView } from '../../domain/order-view.ts';
import type { Category } from '../../domain/category.ts';
import type { EngineState } from '../../engine/state.ts';
import type { BookMirror, InstrumentBook } from './book-mirror.ts';

export interface OrderChange {
  order: OrderView;
  latestFill: FillView | undefined;
}

/**
 * The fields of a plan order (the triggers' PlanUpdated event) that the orders-algo and
 * strategy-order rows use. Read structurally, so this module does not depend on the plan
 * module's internals.
 */
export interface PlanChange {
  planId: string;
  clientOid: string;
  uid: string;
  category: string;
  symbol: string;
  planType: string;
  triggerType: string;
  triggerPrice: string;
  orderType: string;
  executePrice: string;
  size: string;
  side: string;
  holdSide: string;
  tradeSide: string;
  reduceOnly: boolean;
  posMode: string;
  marginMode: string;
  marginCoin: string;
  stpMode: string;
  callbackRatio: string;
  status: string;
  executeOrderId: string;
  /** Spot plans: the unit of `size` (`amount` base, `total` quote). */
  spot?: { sizeUnit: string };
  createdTimeMs: number;
  updatedTimeMs: number;
}

export class Batch {
  readonly orders = new Map<string, OrderChange[]>();
  readonly fills = new Map<string, FillView[]>();
  readonly closed = new Map<string, PositionClosed['position'][]>();
  readonly plans = new Map<string, PlanChange[]>();
  readonly touchedUids = new Set<string>();
  readonly books = new Set<InstrumentBook>();
  readonly trades = new Map<string, TradeRecorded[]>();
  /** Instruments whose ticker may have changed (trades, index price, book). */
  readonly tickers = new Set<string>();
  private readonly latestFill = new Map<string, FillView>();

  /**
   * `watched`: whether anyone subscribes to a uid's private channels. Private rows of the others
   * are not gathered (most orders of a busy server belong to accounts with no socket open); the
   * book mirror and public rows are kept whatever the subscriptions.
   */
  constructor(
    private readonly state: EngineState,
    private readonly mirror: BookMirror,
    private readonly watched: (uid: string) => boolean = () => true,
  ) {}

  private add<T>(map: Map<string, T[]>, key: string, value: T): void {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  }

  collect(event: EngineEvent): void {
    switch (event.type) {
      case 'OrderUpdated': {
        const { order } = event;
        const book = this.mirror.apply(this.state, order);
        if (book) this.books.add(book);
        if (!this.watched(order.uid)) return;
        this.add(this.orders, order.uid, { order, latestFill: this.latestFill.get(order.orderId) });
        this.touchedUids.add(order.uid);
        return;
      }
      case 'FillRecorded':
        if (!this.watched(event.fill.uid)) return;
        this.latestFill.set(event.fill.orderId, event.fill);
        this.add(this.fills, event.fill.uid, event.fill);
        this.touchedUids.add(event.fill.uid);
        return;
      case 'TradeRecorded': {
        const key = instrumentKey(event.category as Category, event.symbol);
        this.add(this.trades, key, event);
        this.tickers.add(key);
        return;
      }
      case 'IndexPriceSet':
      case 'IndexBarsWalked':
        this.tickers.add(instrumentKey(event.category as Category, event.symbol));
        return;
      case 'PositionClosed':
        if (!this.watched(event.position.uid)) return;
        this.add(this.closed, event.position.uid, event.position);
        this.touchedUids.add(event.position.uid);
        return;
      case 'BillPosted':
      case 'FundingRecorded':
      case 'FundingSettled':
        this.touch(event.uid);
        return;
      case 'TransferRecorded':
        this.touch(event.fromUid);
        this.touch(event.toUid);
        return;
      default:
        this.collectOther(event as { type: string; plan?: PlanChange });
    }
  }

  private touch(uid: string): void {
    if (this.watched(uid)) this.touchedUids.add(uid);
  }

  private collectOther(event: { type: string; plan?: PlanChange }): void {
    if (event.type === 'PlanUpdated' && event.plan && this.watched(event.plan.uid)) {
      this.add(this.plans, event.plan.uid, event.plan);
      this.touchedUids.add(event.plan.uid);
    }
  }
}
