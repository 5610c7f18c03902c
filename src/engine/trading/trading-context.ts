/**
 * A command's view of trading: the engine context, the books, and the orders it touched.
 * `finish` reports every touched order once (OrderUpdated) and retires the closed ones from
 * the open-order state, so a command that fills an order five times still emits one update.
 */
import { instrumentKey } from '../../domain/instrument.ts';
import { isOpenStatus, type Order } from '../../domain/order.ts';
import type { Context } from '../context.ts';
import type { Books } from './books.ts';
import { orderView } from './order-view.ts';

export interface TradingContext {
  context: Context;
  books: Books;
  touched: Map<string, Order>;
}

export function lineOf(order: Pick<Order, 'category'>): 'spot' | 'futures' {
  return order.category === 'SPOT' || order.category === 'MARGIN' ? 'spot' : 'futures';
}

function bump(counts: Map<string, number>, key: string, delta: number): void {
  const next = (counts.get(key) ?? 0) + delta;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}

export function countOpen(trading: TradingContext, order: Order, delta: number): void {
  const counts = trading.context.state.openOrderCounts;
  bump(counts, `${order.uid}|${lineOf(order)}`, delta);
  bump(counts, `${order.uid}|${order.category}:${order.symbol}`, delta);
}

export function touch(trading: TradingContext, order: Order): void {
  order.updatedTimeMs = trading.context.nowMs;
  trading.touched.set(order.orderId, order);
}

export function finish(trading: TradingContext): void {
  const { state } = trading.context;
  for (const order of trading.touched.values()) {
    const instrument = state.instruments.get(instrumentKey(order.category, order.symbol));
    if (!instrument) throw new Error(`order ${order.orderId} of an unknown instrument`);
    trading.context.emit({ type: 'OrderUpdated', order: orderView(instrument, order) });
    if (!isOpenStatus(order.status) && state.orders.delete(order.orderId)) countOpen(trading, order, -1);
  }
  trading.touched.clear();
}
