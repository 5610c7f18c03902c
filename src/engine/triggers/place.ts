/**
 * Placing plan orders: every item is validated first and the command fails whole if one
 * fails (a TP and SL pair stands or falls together); then each plan gets its id and creation
 * sequence and joins the book. A position keeps one pos_profit and one pos_loss: a new one
 * replaces (cancels) the old. Nothing is held until the plan fires.
 */
import type { PlacePlanOrders } from '../../domain/commands.ts';
import { positionKey } from '../../domain/position.ts';
import type { Plan } from '../../domain/plan.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import type { Context } from '../context.ts';
import type { TradingContext } from '../trading/trading-context.ts';
import { endPlan, reportPlan } from './lifecycle.ts';
import { addLivePlan } from './plan-state.ts';
import { validateSpotPlan } from './spot.ts';
import { validatePlan, type NewPlan } from './validate.ts';

export interface PlanIds {
  orderId: string;
  clientOid: string;
}

export function createPlan(context: Context, fields: NewPlan, clientOid = fields.clientOid): Plan {
  const plans = context.state.plans;
  const planId = context.nextId();
  return {
    ...fields,
    planId,
    clientOid: clientOid || planId,
    sequence: plans.nextSequence++,
    status: 'live',
    executeOrderId: '',
    createdTimeMs: context.nowMs,
    updatedTimeMs: context.nowMs,
  };
}

/** pos_profit / pos_loss: the position's earlier plan of the same type is cancelled. */
export function replaceWholePositionPlan(context: Context, plan: Plan): void {
  if (plan.planType !== 'pos_profit' && plan.planType !== 'pos_loss') return;
  const plans = context.state.plans;
  const key = positionKey(plan.uid, plan.category, plan.symbol, plan.holdSide);
  for (const planId of [...(plans.byPosition.get(key) ?? [])]) {
    const older = plans.live.get(planId);
    if (older && older.planType === plan.planType) endPlan(context, older, 'cancelled');
  }
}

/** Adds a validated plan to the book and reports it. */
export function openPlan(context: Context, plan: Plan): void {
  replaceWholePositionPlan(context, plan);
  addLivePlan(context.state.plans, plan);
  reportPlan(context, plan);
}

export function placePlanOrders(trading: TradingContext, command: PlacePlanOrders): Outcome<PlanIds[]> {
  const { context } = trading;
  const plans = context.state.plans;
  if (command.items.length === 0) return fail('PARAM_EMPTY', 'planType');
  const validated: NewPlan[] = [];
  const seen = new Set<string>();
  for (const request of command.items) {
    const plan =
      command.category === 'SPOT'
        ? validateSpotPlan(trading, command.uid, request)
        : validatePlan(trading, command.uid, command.category, request);
    if (!plan.ok) return plan;
    const key = `${command.uid}|${request.clientOid ?? ''}`;
    if (request.clientOid && (plans.clientOids.has(key) || (seen.has(key) && !command.grouped)))
      return fail('DUPLICATE_CLIENT_OID');
    seen.add(key);
    validated.push(plan.value);
  }
  const results: PlanIds[] = [];
  let group: { id: string; clientOid: string } | undefined;
  for (const fields of validated) {
    const plan = createPlan(context, fields, group?.clientOid ?? fields.clientOid);
    if (command.grouped) {
      group ??= { id: plan.planId, clientOid: plan.clientOid };
      plan.groupId = group.id;
    }
    openPlan(context, plan);
    results.push({ orderId: plan.planId, clientOid: plan.clientOid });
  }
  return ok(results);
}
