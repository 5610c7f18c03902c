/**
 * Live plans per account and symbol: trigger orders (normal_plan, track_plan) and TP/SL orders
 * count apart (the venue's 40889 / 40890). The plan book keeps the counts (plan-state.ts).
 */
import type { Instrument } from '../../domain/instrument.ts';
import {
  isTpslPlan,
  MAX_TPSL_PLANS_PER_SYMBOL,
  MAX_TRIGGER_PLANS_PER_SYMBOL,
  type PlanType,
} from '../../domain/plan.ts';
import type { Failure } from '../../domain/result-code.ts';
import { countKeyOf, type PlanState } from './plan-state.ts';

export function planLimitFailure(
  plans: PlanState,
  uid: string,
  instrument: Instrument,
  planType: PlanType,
): Failure | null {
  const tpsl = isTpslPlan(planType);
  const limit = tpsl ? MAX_TPSL_PLANS_PER_SYMBOL : MAX_TRIGGER_PLANS_PER_SYMBOL;
  const key = countKeyOf({ uid, category: instrument.category, symbol: instrument.symbol, planType });
  if ((plans.counts.get(key) ?? 0) < limit) return null;
  return { code: tpsl ? 'TPSL_LIMIT_REACHED' : 'PLAN_LIMIT_REACHED', params: [String(limit)] };
}
