/**
 * Live plans per account and symbol: trigger orders (normal_plan, track_plan) and TP/SL orders
 * count apart (the venue's 40889 / 40890). Counted from the symbol's index lists, so the
 * check reads only that symbol's plans.
 */
import type { Instrument } from '../../domain/instrument.ts';
import {
  isTpslPlan,
  MAX_TPSL_PLANS_PER_SYMBOL,
  MAX_TRIGGER_PLANS_PER_SYMBOL,
  TRIGGER_TYPES,
  type PlanType,
} from '../../domain/plan.ts';
import type { Failure } from '../../domain/result-code.ts';
import type { PlanState } from './plan-state.ts';

export function countLivePlans(plans: PlanState, uid: string, instrument: Instrument, tpsl: boolean): number {
  let count = 0;
  for (const triggerType of TRIGGER_TYPES) {
    const entry = plans.index.get(`${instrument.category}:${instrument.symbol}|${triggerType}`);
    if (!entry) continue;
    for (const planId of [...entry.up, ...entry.down, ...entry.trailing]) {
      const plan = plans.live.get(planId);
      if (plan && plan.uid === uid && isTpslPlan(plan.planType) === tpsl) count += 1;
    }
  }
  return count;
}

export function planLimitFailure(
  plans: PlanState,
  uid: string,
  instrument: Instrument,
  planType: PlanType,
): Failure | null {
  const tpsl = isTpslPlan(planType);
  const limit = tpsl ? MAX_TPSL_PLANS_PER_SYMBOL : MAX_TRIGGER_PLANS_PER_SYMBOL;
  if (countLivePlans(plans, uid, instrument, tpsl) < limit) return null;
  return { code: tpsl ? 'TPSL_LIMIT_REACHED' : 'PLAN_LIMIT_REACHED', params: [String(limit)] };
}
