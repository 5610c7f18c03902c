/**
 * Cancelling plans: listed ones (each succeeds or fails on its own; a strategy group is
 * cancelled whole), or every live plan of the account matching category, symbol and types,
 * oldest first.
 */
import type { CancelPlanOrders, PlanReference } from '../../domain/commands.ts';
import { isTpslPlan, type Plan, type PlanType } from '../../domain/plan.ts';
import { fail, ok, type Failure, type Outcome } from '../../domain/result-code.ts';
import type { TradingContext } from '../trading/trading-context.ts';
import { endPlan } from './lifecycle.ts';
import { findLivePlan, type PlanState } from './plan-state.ts';

export type PlanItemResult =
  { orderId: string; clientOid: string } | (Failure & { orderId: string; clientOid: string });

/** A referenced live plan, or the live legs of the strategy group it names. */
export function resolvePlans(plans: PlanState, uid: string, reference: PlanReference): Plan[] {
  const plan = findLivePlan(plans, uid, reference);
  const groupId = plan?.groupId ?? reference.planId;
  if (!groupId) return plan ? [plan] : [];
  const legs = [...plans.live.values()].filter((leg) => leg.uid === uid && leg.groupId === groupId);
  return legs.length > 0 ? legs.sort((a, b) => a.sequence - b.sequence) : plan ? [plan] : [];
}

export function planMatcher(filter: {
  category: string;
  symbol?: string;
  symbols?: readonly string[];
  planTypes: readonly PlanType[];
}) {
  return (plan: Plan) =>
    plan.category === filter.category &&
    (!filter.symbol || plan.symbol === filter.symbol) &&
    (!filter.symbols || filter.symbols.includes(plan.symbol)) &&
    (filter.planTypes.length === 0 || filter.planTypes.includes(plan.planType));
}

export function notFound(planTypes: readonly PlanType[]): Failure['code'] {
  return planTypes.length > 0 && planTypes.every(isTpslPlan) ? 'TPSL_NOT_FOUND' : 'PLAN_NOT_FOUND';
}

export function cancelPlanOrders(
  trading: TradingContext,
  command: CancelPlanOrders,
): Outcome<PlanItemResult[]> {
  const { context } = trading;
  const plans = context.state.plans;
  const matches = planMatcher(command);
  if (command.items) {
    return ok(
      command.items.map((reference): PlanItemResult => {
        const found = resolvePlans(plans, command.uid, reference);
        const ids = { orderId: reference.planId ?? '', clientOid: reference.clientOid ?? '' };
        if (found.length === 0 || !found.every(matches))
          return { ...ids, ...fail(notFound(command.planTypes)) };
        for (const plan of found) endPlan(context, plan, 'cancelled');
        const [first] = found;
        return { orderId: first?.groupId ?? first?.planId ?? '', clientOid: first?.clientOid ?? '' };
      }),
    );
  }
  const all = [...plans.live.values()]
    .filter((plan) => plan.uid === command.uid && matches(plan))
    .sort((a, b) => a.sequence - b.sequence);
  for (const plan of all) endPlan(context, plan, 'cancelled');
  return ok(all.map((plan) => ({ orderId: plan.planId, clientOid: plan.clientOid })));
}
