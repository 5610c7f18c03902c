/**
 * Firing a plan: the order it places goes through the shared placement path
 * (engine/trading/place.ts placeOne, which resolves open/close by position mode and holds
 * margin only now), inside the command that moved the price. Accepted: the plan is
 * `executed` and linked to the order (`executeOrderId`; the order's source names the plan).
 * Refused (no margin, symbol offline, price band, …): `fail_execute` with the reason.
 *
 * TP/SL plans place a close order of the position they protect: the whole position
 * (pos_profit, pos_loss) or their size, at most what is left; if that position has closed in
 * the meantime they are cancelled instead. The other legs of a v3 strategy group are cancelled
 * when one fires (one-cancels-the-other). Spot plans place a spot order sized at the price that
 * fired them (engine/triggers/spot.ts).
 */
import type { OrderRequest, PlaceOrders } from '../../domain/commands.ts';
import { formatMoney } from '../../domain/money.ts';
import { isTpslPlan, type Plan } from '../../domain/plan.ts';
import type { Order } from '../../domain/order.ts';
import { positionKey } from '../../domain/position.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import { positionModeOf } from '../futures/settings.ts';
import { lotsToQuantity } from '../instruments/scales.ts';
import { placeOne } from '../trading/place.ts';
import { finish, touchedOrder, type TradingContext } from '../trading/trading-context.ts';
import { instrumentKey } from '../../domain/instrument.ts';
import { endPlan } from './lifecycle.ts';
import { positionKeyOf } from './plan-state.ts';
import { spotOrderRequest } from './spot.ts';

/** The order's source: trigger orders are `plan`; TP/SL orders name their plan type. */
export function orderSourceOf(plan: Plan): Order['source'] {
  return plan.planType === 'normal_plan' || plan.planType === 'track_plan' ? 'plan' : plan.planType;
}

function baseRequest(plan: Plan, lots: string): OrderRequest {
  const request: OrderRequest = {
    symbol: plan.symbol,
    side: plan.side,
    orderType: plan.orderType,
    timeInForce: plan.orderType === 'limit' ? 'gtc' : 'ioc',
    stpMode: plan.stpMode,
    quantity: lots,
    marginCoin: plan.marginCoin,
  };
  if (plan.orderType === 'limit') request.price = formatMoney(plan.executePrice);
  if (plan.posMode === 'hedge_mode') request.posSide = plan.holdSide;
  if (plan.reduceOnly) request.reduceOnly = true;
  return request;
}

/** null: a TP/SL plan whose position is gone (it is cancelled, not failed). */
function orderRequestOf(trading: TradingContext, plan: Plan): Outcome<OrderRequest> | null {
  const { state } = trading.context;
  if (plan.category === 'SPOT') return spotOrderRequest(trading, plan);
  const instrument = state.instruments.get(instrumentKey(plan.category, plan.symbol));
  if (!instrument) return fail('SYMBOL_NOT_FOUND', plan.symbol);
  if (positionModeOf(state, plan.uid, plan.category) !== plan.posMode)
    return fail('POSITION_MODE_MISMATCH', 'posMode');
  if (!isTpslPlan(plan.planType)) {
    const request = baseRequest(plan, lotsToQuantity(instrument, plan.sizeLots));
    request.marginMode = plan.marginMode;
    return ok(request);
  }
  const position = state.positions.get(positionKey(plan.uid, plan.category, plan.symbol, plan.holdSide));
  if (!position || position.positionId !== plan.positionId) return null;
  const lots = plan.sizeLots === 0 ? position.sizeLots : Math.min(plan.sizeLots, position.sizeLots);
  return ok(baseRequest(plan, lotsToQuantity(instrument, lots)));
}

/** Cancels the other live legs of the plan's strategy group. */
function endGroup(trading: TradingContext, plan: Plan): void {
  if (!plan.groupId) return;
  const plans = trading.context.state.plans;
  for (const planId of [...(plans.byPosition.get(positionKeyOf(plan)) ?? [])]) {
    const leg = plans.live.get(planId);
    if (leg && leg !== plan && leg.groupId === plan.groupId) endPlan(trading.context, leg, 'cancelled');
  }
}

function awaitPresets(trading: TradingContext, plan: Plan, orderId: string): void {
  if (!plan.takeProfit && !plan.stopLoss) return;
  trading.context.state.plans.awaitingFill.set(orderId, {
    uid: plan.uid,
    category: plan.category,
    symbol: plan.symbol,
    holdSide: plan.holdSide,
    planType: plan.planType,
    stpMode: plan.stpMode,
    ...(plan.takeProfit ? { takeProfit: plan.takeProfit } : {}),
    ...(plan.stopLoss ? { stopLoss: plan.stopLoss } : {}),
  });
}

export function firePlan(trading: TradingContext, plan: Plan): void {
  const { context } = trading;
  const request = orderRequestOf(trading, plan);
  if (request === null) {
    endPlan(context, plan, 'cancelled');
    return;
  }
  if (!request.ok) {
    endPlan(context, plan, 'fail_execute', request);
    return;
  }
  const command: PlaceOrders = {
    type: 'PlaceOrders',
    timeMs: context.nowMs,
    uid: plan.uid,
    category: plan.category,
    items: [request.value],
  };
  const result = placeOne(trading, plan.uid, command, request.value);
  endGroup(trading, plan);
  if ('code' in result) {
    endPlan(context, plan, 'fail_execute', result);
  } else {
    // A reduce-only order that replaced older ones is answered without its id; its clientOid is it.
    const orderId = result.orderId || result.clientOid;
    const order = touchedOrder(trading, orderId);
    if (order) order.source = orderSourceOf(plan);
    plan.executeOrderId = orderId;
    awaitPresets(trading, plan, orderId);
    endPlan(context, plan, 'executed');
  }
  finish(trading);
}
