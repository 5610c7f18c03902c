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
  /**
   * The orders touched since the last finish, in the order first touched. By object, not by
   * id: an order taken whole at once (a taker that fills) then never has its id hashed, and
   * a fresh id's first hash is the dear one (a new 18-digit text).
   */
  touched: Set<Order>;
  /**
   * The orders this command opened (openOrder), until finish reports them, in opening order.
   * openOrder touches each as it opens it, so they come in `touched` in this same order:
   * finish tells them apart with one cursor, without a set of ids.
   */
  opened: Order[];
}

/**
 * A command's trading view, nothing touched yet. Its set and list are the command's own and die
 * with it: one kept from command to command and cleared made every order it had held survive
 * young-generation collections (exchange.ts, enterTime).
 */
export function tradingContext(context: Context, books: Books): TradingContext {
  return { context, books, touched: new Set(), opened: [] };
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
  trading.touched.add(order);
}

/** The order with this id among those touched since the last finish, if any (a scan: rare). */
export function touchedOrder(trading: TradingContext, orderId: string): Order | undefined {
  for (const order of trading.touched) if (order.orderId === orderId) return order;
  return undefined;
}

export function finish(trading: TradingContext): void {
  const { state } = trading.context;
  const opened = trading.opened;
  let nextOpened = 0;
  for (const order of trading.touched) {
    const key = instrumentKey(order.category, order.symbol);
    const instrument = state.instruments.get(key);
    if (!instrument) throw new Error(`order ${order.orderId} of an unknown instrument`);
    const created = order === opened[nextOpened];
    if (created) nextOpened += 1;
    if (trading.context.recording) {
      // The view is formatted where it is read (report-records.ts).
      trading.context.emit(new OrderUpdatedRecord(instrument, order, created));
    }
    notePlanOrder(state, instrument, order);
    if (!isOpenStatus(order.status) && state.orders.delete(order.orderId))
      changeOpenCount(state, order, key, -1);
  }
  // clear() allocates a fresh table, and most finishes (the clock jobs' before each command)
  // have nothing to clear.
  if (trading.touched.size > 0) trading.touched.clear();
  if (opened.length > 0) opened.length = 0;
}
