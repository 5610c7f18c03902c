/**
 * Spot plan orders in the venue's v2 shapes: rows of current-plan-order and
 * history-plan-order (`planType` is the size unit, amount or total; `status` live, then
 * executed, fail_execute or cancelled, which ccxt reads as open, closed, rejected and
 * canceled), plan-sub-order rows (the order a plan placed: `status` success, or fail with
 * no order when the placed order was refused) and the v2 SPOT `orders-algo` push rows.
 */
import type { OrderView } from '../../domain/order-view.ts';
import type { PlanView } from '../../domain/plan.ts';
import type { PlanChange } from '../ws/batch.ts';

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

/** A spot plan on the v2 SPOT orders-algo WebSocket channel (`actualSize`: placed size). */
export function v2SpotPlanPush(plan: PlanChange): Record<string, unknown> {
  return {
    instId: plan.symbol,
    orderId: plan.planId,
    clientOid: plan.clientOid,
    triggerPrice: plan.triggerPrice,
    triggerType: plan.triggerType,
    planType: plan.spot?.sizeUnit ?? 'amount',
    price: plan.executePrice,
    executePrice: plan.executePrice,
    size: plan.size,
    actualSize: plan.status === 'executed' ? plan.size : '0',
    orderType: plan.orderType,
    side: plan.side,
    status: plan.status,
    enterPointSource: 'API',
    stpMode: plan.stpMode,
    cTime: String(plan.createdTimeMs),
    uTime: String(plan.updatedTimeMs),
  };
}
