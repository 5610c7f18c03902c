/**
 * Cancelling: out of the book, hold released, status cancelled with the venue's reason.
 * Looking orders up: by orderId, else by clientOid (orderId wins when both are given).
 */
import type { CancelAllOrders, CancelOrders, OrderReference } from '../../domain/commands.ts';
import { isOpenStatus, transition, type CancelReason, type Order } from '../../domain/order.ts';
import { fail, ok, type Failure, type Outcome } from '../../domain/result-code.ts';
import type { EngineState } from '../state.ts';
import { releaseOrder } from './settle.ts';
import { finish, touch, type TradingContext } from './trading-context.ts';

export function findOpenOrder(state: EngineState, uid: string, reference: OrderReference): Order | undefined {
  let order: Order | undefined;
  if (reference.orderId) order = state.orders.get(reference.orderId);
  else if (reference.clientOid) {
    const known = state.clientOids.get(`${uid}|${reference.clientOid}`);
    order = state.orders.get(known?.orderId ?? reference.clientOid);
  }
  if (!order || order.uid !== uid) return undefined;
  if (reference.symbol && order.symbol !== reference.symbol) return undefined;
  if (reference.category && order.category !== reference.category) return undefined;
  if (reference.wallet && order.wallet !== reference.wallet) return undefined;
  return order;
}

export function cancelOpenOrder(trading: TradingContext, order: Order, reason: CancelReason): void {
  if (!isOpenStatus(order.status)) return;
  trading.books.peek(`${order.category}:${order.symbol}`)?.remove(order.orderId);
  releaseOrder(trading, order);
  transition(order, 'cancelled');
  order.cancelReason = reason;
  touch(trading, order);
}

export type ItemResult =
  { orderId: string; clientOid: string } | (Failure & { orderId: string; clientOid: string });

export function cancelOrders(trading: TradingContext, command: CancelOrders): Outcome<ItemResult[]> {
  const results: ItemResult[] = command.items.map((reference) => {
    const order = findOpenOrder(trading.context.state, command.uid, reference);
    const ids = {
      orderId: reference.orderId ?? order?.orderId ?? '',
      clientOid: reference.clientOid ?? order?.clientOid ?? '',
    };
    if (!order) return { ...ids, ...fail('ORDER_NOT_FOUND') };
    cancelOpenOrder(trading, order, 'normal_cancel');
    return { orderId: order.orderId, clientOid: order.clientOid };
  });
  finish(trading);
  return ok(results);
}

export function cancelAllOrders(trading: TradingContext, command: CancelAllOrders): Outcome<ItemResult[]> {
  const results: ItemResult[] = [];
  for (const order of [...trading.context.state.orders.values()]) {
    if (order.uid !== command.uid || !command.categories.includes(order.category)) continue;
    if (command.symbol && order.symbol !== command.symbol) continue;
    cancelOpenOrder(trading, order, 'normal_cancel');
    results.push({ orderId: order.orderId, clientOid: order.clientOid });
  }
  finish(trading);
  return ok(results);
}
