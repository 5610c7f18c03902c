/**
 * What the trading routes share: submitting placements and cancels, and reading orders
 * (open ones from the engine, which is always current; closed ones from the projections).
 */
import type { Category } from '../../domain/category.ts';
import type { OrderReference, OrderRequest } from '../../domain/commands.ts';
import { instrumentKey } from '../../domain/instrument.ts';
import type { OrderView } from '../../domain/order-view.ts';
import type { ItemResult } from '../../engine/trading/cancel.ts';
import { findOpenOrder } from '../../engine/trading/cancel.ts';
import { orderView } from '../../engine/trading/order-view.ts';
import { unwrap } from '../request.ts';
import type { Services } from '../services.ts';

export function place(
  services: Services,
  uid: string,
  category: Category,
  items: OrderRequest[],
): Promise<ItemResult[]> {
  return services.sequencer
    .submit<ItemResult[]>({ type: 'PlaceOrders', timeMs: services.clock.now(), uid, category, items })
    .then(unwrap);
}

export function cancel(services: Services, uid: string, items: OrderReference[]): Promise<ItemResult[]> {
  return services.sequencer
    .submit<ItemResult[]>({ type: 'CancelOrders', timeMs: services.clock.now(), uid, items })
    .then(unwrap);
}

export function cancelAll(
  services: Services,
  uid: string,
  categories: Category[],
  symbol?: string,
): Promise<ItemResult[]> {
  return services.sequencer
    .submit<ItemResult[]>({
      type: 'CancelAllOrders',
      timeMs: services.clock.now(),
      uid,
      categories,
      ...(symbol ? { symbol } : {}),
    })
    .then(unwrap);
}

export function openOrderViews(
  services: Services,
  uid: string,
  filter: {
    categories?: readonly Category[];
    symbol?: string;
    startTimeMs?: number;
    endTimeMs?: number;
    idLessThan?: string;
  },
): OrderView[] {
  const state = services.sequencer.exchange.state;
  const views: OrderView[] = [];
  for (const order of state.orders.values()) {
    if (order.uid !== uid) continue;
    if (filter.categories && !filter.categories.includes(order.category)) continue;
    if (filter.symbol && order.symbol !== filter.symbol) continue;
    if (filter.startTimeMs !== undefined && order.createdTimeMs < filter.startTimeMs) continue;
    if (filter.endTimeMs !== undefined && order.createdTimeMs > filter.endTimeMs) continue;
    if (filter.idLessThan && order.orderId >= filter.idLessThan) continue;
    const instrument = state.instruments.get(instrumentKey(order.category, order.symbol));
    if (instrument) views.push(orderView(instrument, order));
  }
  return views.sort((a, b) => (a.orderId < b.orderId ? 1 : a.orderId > b.orderId ? -1 : 0));
}

/** An order by id or clientOid: the open one from the engine, else the stored record. */
export async function findOrder(
  services: Services,
  uid: string,
  reference: OrderReference,
): Promise<OrderView | null> {
  const state = services.sequencer.exchange.state;
  const open = findOpenOrder(state, uid, reference);
  if (open) {
    const instrument = state.instruments.get(instrumentKey(open.category, open.symbol));
    if (instrument) return orderView(instrument, open);
  }
  return services.store.order(uid, {
    ...(reference.orderId ? { orderId: reference.orderId } : {}),
    ...(reference.clientOid ? { clientOid: reference.clientOid } : {}),
  });
}

export function permissionAreaOf(category: Category): 'spot' | 'margin' | 'futures_orders' {
  return category === 'SPOT' ? 'spot' : category === 'MARGIN' ? 'margin' : 'futures_orders';
}
