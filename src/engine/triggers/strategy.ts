/**
 * Plan groups (v3 strategy orders): the TP and SL legs of one strategy order share a group id
 * (the first leg's id, which is the orderId the client sees) and its clientOid. Modifying a
 * strategy order replaces its legs in one step: the new legs are validated first (a failure
 * changes nothing), then the old ones end `cancelled` and marked `replaced` (so reports leave
 * them out) and the new ones join the group.
 */
import type { ReplacePlanGroup } from '../../domain/commands.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import type { TradingContext } from '../trading/trading-context.ts';
import { notFound, resolvePlans } from './cancel.ts';
import { endPlan } from './lifecycle.ts';
import { createPlan, openPlan, type PlanIds } from './place.ts';
import { validatePlan, type NewPlan } from './validate.ts';

export function replacePlanGroup(trading: TradingContext, command: ReplacePlanGroup): Outcome<PlanIds> {
  const { context } = trading;
  const legs = resolvePlans(context.state.plans, command.uid, command.reference);
  const [first] = legs;
  if (!first || legs.some((leg) => leg.category !== command.category)) return fail(notFound([]));
  if (command.items.length === 0) return fail('PARAM_EMPTY', 'takeProfit');
  const validated: NewPlan[] = [];
  for (const request of command.items) {
    const plan = validatePlan(trading, command.uid, command.category, request);
    if (!plan.ok) return plan;
    validated.push(plan.value);
  }
  const groupId = first.groupId ?? first.planId;
  for (const leg of legs) {
    leg.replaced = true;
    endPlan(context, leg, 'cancelled');
  }
  for (const fields of validated) {
    const plan = createPlan(context, fields, first.clientOid);
    plan.groupId = groupId;
    openPlan(context, plan);
  }
  return ok({ orderId: groupId, clientOid: first.clientOid });
}
