/**
 * A command's view of trading: the engine context, the books, and the orders it touched.
 * `finish` reports every touched order once (OrderUpdated) and retires the closed ones from
 * the open-order state, so a command that fills an order five times still emits one update.
 */
import { instrumentKey } from '../../domain/instrument.ts';
import { isOpenStatus, type Order } from '../../domain/order.ts';
import type { Context } from '../context.ts';
import type { EngineState } from '../state.ts';
import type { Books } from './books.ts';
import { OrderUpdatedRecord } from './report-records.ts';
import { notePlanOrder } from '../triggers/fill-watch.ts';

export interface TradingContext {
  context: Context;
  books: Books;
  touched: Map<string, Order>;
  /** Ids of the orders this command opened (openOrder), until finish reports them. */
  opened: Set<string>;
}

/**
 * A command's trading view, nothing touched yet. Its map and set are the command's own and die
 * with it: one kept from command to command and cleared made every order it had held survive
 * young-generation collections (exchange.ts, enterTime).
 */
export function tradingContext(context: Context, books: Books): TradingContext {
  return { context, books, touched: new Map(), opened: new Set() };
}

export function lineOf(order: Pick<Order, 'category'>): 'spot' | 'futures' {
  return order.category === 'SPOT' || order.category === 'MARGIN' ? 'spot' : 'futures';
}

function bump(counts: Map<string, number>, key: string, delta: number): void {
  const next = (counts.get(key) ?? 0) + delta;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}

/** How many open orders `uid` has on a line (`spot`, `futures`) or an instrument key. */
export function openCount(state: EngineState, uid: string, lineOrKey: string): number {
  return state.openOrderCounts.get(uid)?.get(lineOrKey) ?? 0;
}

function changeOpenCount(state: EngineState, order: Order, key: string, delta: number): void {
  let counts = state.openOrderCounts.get(order.uid);
  if (!counts) {
    counts = new Map();
    state.openOrderCounts.set(order.uid, counts);
  }
  bump(counts, lineOf(order), delta);
  bump(counts, key, delta);
  if (counts.size === 0) state.openOrderCounts.delete(order.uid);
}

export function countOpen(trading: TradingContext, order: Order, delta: number): void {
  changeOpenCount(trading.context.state, order, instrumentKey(order.category, order.symbol), delta);
}

/** Recounts open orders from `state.orders` (an engine made from a snapshot). */
export function rebuildOpenOrderCounts(state: EngineState): void {
  state.openOrderCounts = new Map();
  for (const order of state.orders.values()) {
    changeOpenCount(state, order, instrumentKey(order.category, order.symbol), 1);
  }
}

export function touch(trading: TradingContext, order: Order): void {
  order.updatedTimeMs = trading.context.nowMs;
  trading.touched.set(order.orderId, order);
}

export function finish(trading: TradingContext): void {
  const { state } = trading.context;
  for (const order of trading.touched.values()) {
    const key = instrumentKey(order.category, order.symbol);
    const instrument = state.instruments.get(key);
    if (!instrument) throw new Error(`order ${order.orderId} of an unknown instrument`);
    if (trading.context.recording) {
      // The view is formatted where it is read (report-records.ts).
      trading.context.emit(new OrderUpdatedRecord(instrument, order, trading.opened.has(order.orderId)));
    }
    notePlanOrder(state, instrument, order);
    if (!isOpenStatus(order.status) && state.orders.delete(order.orderId))
      changeOpenCount(state, order, key, -1);
  }
  // clear() allocates a fresh table, and most finishes (the clock jobs' before each command)
  // have nothing to clear.
  if (trading.touched.size > 0) trading.touched.clear();
  if (trading.opened.size > 0) trading.opened.clear();
}
