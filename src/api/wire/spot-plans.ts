/**
 * Spot plan orders in the venue's v2 shapes: rows of current-plan-order and
 * history-plan-order (`planType` is the size unit, amount or total; `status` live, then
 * executed, fail_execute or cancelled, which ccxt reads as open, closed, rejected and
 * canceled) and plan-sub-order rows (the order a plan placed: `status` success, or fail with
 * no order when the placed order was refused).
 */
import type { OrderView } from '../../domain/order-view.ts';
import type { PlanView } from '../../domain/plan.ts';

export function v2SpotPlanRow(plan: PlanView): Record<string, unknown> {
  return {
    orderId: plan.planId,
    clientOid: plan.clientOid,
    symbol: plan.symbol,
    size: plan.size,
    executePrice: plan.executePrice,
    triggerPrice: plan.triggerPrice,
    status: plan.status,
    orderType: plan.orderType,
    side: plan.side,
    planType: plan.spot?.sizeUnit ?? 'amount',
    triggerType: plan.triggerType,
    enterPointSource: 'API',
    uTime: String(plan.updatedTimeMs),
    cTime: String(plan.createdTimeMs),
  };
}

/** plan-sub-order: [] while the plan waits or once cancelled. */
export function v2SpotPlanSubOrders(plan: PlanView, order: OrderView | null): Record<string, unknown>[] {
  if (plan.status === 'fail_execute')
    return [{ orderId: '', price: plan.executePrice, type: plan.orderType, status: 'fail' }];
  if (plan.status !== 'executed' || !order) return [];
  const price = order.orderType === 'limit' ? order.price : order.avgPrice;
  return [{ orderId: order.orderId, price, type: order.orderType, status: 'success' }];
}
