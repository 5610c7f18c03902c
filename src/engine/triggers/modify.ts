/**
 * Modifying a live plan (v2 modify-plan-order, v3 modify-strategy-order): size, execute price,
 * callback ratio, trigger price and type, and the presets. Everything is checked as at
 * placement before anything changes. A new trigger price or type puts the plan back in the
 * queue by the price now (a trailing plan waits for activation again); its creation sequence
 * (its place among ties) is kept.
 */
import type { ModifyPlanOrder } from '../../domain/commands.ts';
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import { isTpslPlan, type Plan, type PlanPreset } from '../../domain/plan.ts';
import { positionKey } from '../../domain/position.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import type { TradingContext } from '../trading/trading-context.ts';
import { notFound, planMatcher } from './cancel.ts';
import { reportPlan } from './lifecycle.ts';
import { findLivePlan, indexPlan, unindexPlan } from './plan-state.ts';
import type { PlanIds } from './place.ts';
import { referencePriceFor } from './prices.ts';
import { spotPlanChanges } from './spot.ts';
import { directionOf, gridPrice, planLots, presetOf, presetsConsistent, trailingOf } from './validate.ts';

type Changes = Pick<Plan, 'sizeLots' | 'executePrice' | 'triggerPrice' | 'triggerType' | 'direction'> &
  Pick<Plan, 'trailing' | 'takeProfit' | 'stopLoss'>;

function sizeChange(
  trading: TradingContext,
  plan: Plan,
  instrument: Instrument,
  size: string,
): Outcome<number> {
  if (plan.planType === 'pos_profit' || plan.planType === 'pos_loss') return ok(0);
  const lots = planLots(instrument, size, plan.orderType === 'market');
  if (!lots.ok || !isTpslPlan(plan.planType)) return lots;
  const position = trading.context.state.positions.get(
    positionKey(plan.uid, plan.category, plan.symbol, plan.holdSide),
  );
  return position && lots.value <= position.sizeLots ? lots : fail('TPSL_POSITION_INSUFFICIENT');
}

function triggerChange(
  trading: TradingContext,
  plan: Plan,
  instrument: Instrument,
  command: ModifyPlanOrder,
  changes: Changes,
): Outcome<true> {
  if (command.triggerPrice === undefined && command.triggerType === undefined) return ok(true);
  const trigger = gridPrice(instrument, command.triggerPrice ?? '', 'triggerPrice');
  if (command.triggerPrice !== undefined && !trigger.ok) return trigger;
  changes.triggerPrice = trigger.ok ? trigger.value : plan.triggerPrice;
  changes.triggerType = command.triggerType ?? plan.triggerType;
  const { state, books } = { state: trading.context.state, books: trading.books };
  const reference = referencePriceFor(state, books, instrument, changes.triggerType);
  if (reference === null) return fail('PRICE_UNAVAILABLE');
  const kind =
    plan.planType === 'profit_plan' || plan.planType === 'pos_profit'
      ? 'take_profit'
      : plan.planType === 'loss_plan' || plan.planType === 'pos_loss'
        ? 'stop_loss'
        : 'trigger';
  const direction = directionOf(kind, plan.holdSide, changes.triggerPrice, reference);
  if (!direction.ok) return direction;
  changes.direction = direction.value;
  if (changes.trailing) changes.trailing = { ...changes.trailing, activated: false, extremePrice: 0n };
  return ok(true);
}

function presetChange(
  plan: Plan,
  instrument: Instrument,
  value: PlanPreset | null | undefined,
  name: 'stopSurplus' | 'stopLoss',
): Outcome<PlanPreset | undefined> {
  const current = name === 'stopSurplus' ? plan.takeProfit : plan.stopLoss;
  if (value === undefined) return ok(current);
  if (value === null) return ok(undefined);
  if ((plan.planType !== 'normal_plan' && plan.planType !== 'track_plan') || plan.tradeSide === 'close')
    return fail('PARAM_ERROR', `${name}TriggerPrice`);
  return presetOf(instrument, value, plan.planType, name);
}

function changesOf(
  trading: TradingContext,
  plan: Plan,
  instrument: Instrument,
  command: ModifyPlanOrder,
): Outcome<Changes> {
  const changes: Changes = {
    sizeLots: plan.sizeLots,
    executePrice: plan.executePrice,
    triggerPrice: plan.triggerPrice,
    triggerType: plan.triggerType,
    direction: plan.direction,
    trailing: plan.trailing ? { ...plan.trailing } : undefined,
    takeProfit: plan.takeProfit,
    stopLoss: plan.stopLoss,
  };
  if (command.size !== undefined) {
    const lots = sizeChange(trading, plan, instrument, command.size);
    if (!lots.ok) return lots;
    changes.sizeLots = lots.value;
  }
  if (command.price !== undefined) {
    if (plan.orderType !== 'limit') return fail('PARAM_ERROR', 'newPrice');
    const price = gridPrice(instrument, command.price, 'newPrice');
    if (!price.ok) return price;
    changes.executePrice = price.value;
  }
  if (command.callbackRatio !== undefined) {
    if (!changes.trailing) return fail('PARAM_ERROR', 'newCallbackRatio');
    const trailing = trailingOf(command.callbackRatio, 'newCallbackRatio');
    if (!trailing.ok) return trailing;
    changes.trailing = { ...changes.trailing, ...trailing.value, activated: changes.trailing.activated };
    changes.trailing.extremePrice = plan.trailing?.extremePrice ?? 0n;
  }
  const trigger = triggerChange(trading, plan, instrument, command, changes);
  if (!trigger.ok) return trigger;
  const takeProfit = presetChange(plan, instrument, command.takeProfit, 'stopSurplus');
  if (!takeProfit.ok) return takeProfit;
  const stopLoss = presetChange(plan, instrument, command.stopLoss, 'stopLoss');
  if (!stopLoss.ok) return stopLoss;
  changes.takeProfit = takeProfit.value;
  changes.stopLoss = stopLoss.value;
  if (!presetsConsistent({ ...plan, ...changes }, instrument)) return fail('PRESET_PRICE_INVALID', 'preset');
  return ok(changes);
}

/** Spot plans: every term checked as at placement, then applied at once (spot.ts). */
function modifySpot(trading: TradingContext, plan: Plan, command: ModifyPlanOrder): Outcome<PlanIds> {
  const changes = spotPlanChanges(trading, plan, command);
  if (!changes.ok) return changes;
  const plans = trading.context.state.plans;
  unindexPlan(plans, plan);
  Object.assign(plan, changes.value);
  indexPlan(plans, plan);
  reportPlan(trading.context, plan);
  return ok({ orderId: plan.planId, clientOid: plan.clientOid });
}

export function modifyPlanOrder(trading: TradingContext, command: ModifyPlanOrder): Outcome<PlanIds> {
  const { context } = trading;
  const plans = context.state.plans;
  const plan = findLivePlan(plans, command.uid, command.reference);
  if (!plan || !planMatcher(command)(plan)) return fail(notFound(command.planTypes));
  if (plan.category === 'SPOT') return modifySpot(trading, plan, command);
  const instrument = context.state.instruments.get(instrumentKey(plan.category, plan.symbol));
  if (!instrument) return fail('SYMBOL_NOT_FOUND', plan.symbol);
  const changes = changesOf(trading, plan, instrument, command);
  if (!changes.ok) return changes;
  unindexPlan(plans, plan);
  const { trailing, takeProfit, stopLoss, ...rest } = changes.value;
  Object.assign(plan, rest);
  if (trailing) plan.trailing = trailing;
  if (takeProfit) plan.takeProfit = takeProfit;
  else delete plan.takeProfit;
  if (stopLoss) plan.stopLoss = stopLoss;
  else delete plan.stopLoss;
  indexPlan(plans, plan);
  reportPlan(context, plan);
  return ok({ orderId: plan.planId, clientOid: plan.clientOid });
}
