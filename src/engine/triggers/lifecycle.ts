/**
 * A plan's life after placement: reported on every change (one PlanUpdated per change), and
 * ended exactly once (executed, fail_execute or cancelled), which takes it out of the book.
 */
import { instrumentKey } from '../../domain/instrument.ts';
import { transitionPlan, type Plan, type PlanStatus } from '../../domain/plan.ts';
import type { Failure } from '../../domain/result-code.ts';
import type { Context } from '../context.ts';
import { removeLivePlan } from './plan-state.ts';
import { planView } from './view.ts';

export function reportPlan(context: Context, plan: Plan): void {
  const instrument = context.state.instruments.get(instrumentKey(plan.category, plan.symbol));
  if (!instrument) throw new Error(`plan ${plan.planId} of an unknown instrument`);
  plan.updatedTimeMs = context.nowMs;
  context.emit({ type: 'PlanUpdated', plan: planView(instrument, plan) });
}

export function endPlan(
  context: Context,
  plan: Plan,
  status: Exclude<PlanStatus, 'live'>,
  failure?: Failure,
): void {
  transitionPlan(plan, status);
  if (failure) {
    plan.failCode = failure.code;
    plan.failParams = [...(failure.params ?? [])];
  }
  removeLivePlan(context.state.plans, plan);
  reportPlan(context, plan);
}
