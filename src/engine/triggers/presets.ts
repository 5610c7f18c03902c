/**
 * Presets of trigger orders, and of ordinary futures orders (order-presets.ts): when the order
 * first fills, its take-profit and stop-loss become whole-position plans (pos_profit, pos_loss)
 * on the position the order opened (replacing the position's earlier ones); a TP and an SL of
 * one order form a group, so that when one fires the other is cancelled (as the legs of a v3
 * strategy order, which is how v3 lists them). normal_plan presets are prices; track_plan
 * presets are percentages of the order's average fill price at that moment, rounded to the
 * price grid toward the fill price (so they fire no later than asked); one that would fall
 * to zero or below is dropped.
 *
 * The engine notes when an awaited order reports its first fill (or ends without one) as the
 * command finishes its touched orders (`notePlanOrder`, fill-watch.ts); evaluation then attaches the presets
 * (`attachReadyPresets`), in the same command.
 */
import { divide, parseScaled } from '../../domain/decimal.ts';
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import { parseMoney } from '../../domain/money.ts';
import { PERCENT_SCALE, type PlanPreset } from '../../domain/plan.ts';
import { positionKey } from '../../domain/position.ts';
import type { Context } from '../context.ts';
import { positionModeOf } from '../futures/settings.ts';
import { ticksToMoney } from '../instruments/scales.ts';
import type { TradingContext } from '../trading/trading-context.ts';
import { createPlan, openPlan } from './place.ts';
import type { PendingPresets } from './plan-state.ts';
import { attachSpotPresets } from './spot-presets.ts';
import { exitDirection, type NewPlan } from './validate.ts';

const HUNDRED = 100n * 10n ** BigInt(PERCENT_SCALE);

/** A track_plan percentage off the fill price, on the grid, rounded toward the fill price. */
function percentPrice(instrument: Instrument, fill: bigint, percent: bigint, above: boolean): bigint | null {
  const tick = ticksToMoney(instrument, 1);
  const raw = above
    ? divide(fill * (HUNDRED + percent), HUNDRED, 'down')
    : divide(fill * (HUNDRED - percent), HUNDRED, 'up');
  const ticks = above ? divide(raw, tick, 'down') : divide(raw, tick, 'up');
  return ticks > 0n ? ticks * tick : null;
}

function triggerOf(
  instrument: Instrument,
  pending: PendingPresets,
  preset: PlanPreset,
  kind: 'take_profit' | 'stop_loss',
): bigint | null {
  if (pending.planType !== 'track_plan') return parseMoney(preset.triggerPrice);
  const percent = parseScaled(preset.triggerPrice, PERCENT_SCALE) ?? 0n;
  const above = exitDirection(kind, pending.holdSide) === 'up';
  return percentPrice(instrument, pending.fillPrice ?? 0n, percent, above);
}

function attach(context: Context, instrument: Instrument, pending: PendingPresets): void {
  const { state } = context;
  const position = state.positions.get(
    positionKey(pending.uid, pending.category, pending.symbol, pending.holdSide),
  );
  if (!position) return;
  const posMode = positionModeOf(state, pending.uid, pending.category);
  // A TP and an SL from one order are one pair: when one fires the other is cancelled.
  let groupId: string | undefined;
  const paired = Boolean(pending.takeProfit && pending.stopLoss);
  for (const [preset, planType, kind] of [
    [pending.takeProfit, 'pos_profit', 'take_profit'],
    [pending.stopLoss, 'pos_loss', 'stop_loss'],
  ] as const) {
    if (!preset) continue;
    const triggerPrice = triggerOf(instrument, pending, preset, kind);
    if (triggerPrice === null) continue;
    const executePrice = preset.executePrice ? (parseMoney(preset.executePrice) ?? 0n) : 0n;
    const fields: NewPlan = {
      clientOid: '',
      uid: pending.uid,
      category: pending.category,
      symbol: pending.symbol,
      planType,
      triggerType: preset.triggerType,
      triggerPrice,
      direction: exitDirection(kind, pending.holdSide),
      orderType: executePrice > 0n ? 'limit' : 'market',
      executePrice,
      sizeLots: 0,
      side: pending.holdSide === 'long' ? 'sell' : 'buy',
      holdSide: pending.holdSide,
      tradeSide: 'close',
      reduceOnly: posMode === 'one_way_mode',
      posMode,
      marginMode: position.marginMode,
      marginCoin: position.marginCoin,
      stpMode: pending.stpMode,
      positionId: position.positionId,
    };
    const plan = createPlan(context, fields);
    if (paired) plan.groupId = groupId ??= plan.planId;
    openPlan(context, plan);
  }
}

/** Turns the presets of orders that filled into position TP/SL plans. */
export function attachReadyPresets(trading: TradingContext): boolean {
  const { context } = trading;
  const plans = context.state.plans;
  if (plans.ready.length === 0) return false;
  for (const orderId of plans.ready.splice(0)) {
    const pending = plans.awaitingFill.get(orderId);
    plans.awaitingFill.delete(orderId);
    const instrument =
      pending && context.state.instruments.get(instrumentKey(pending.category, pending.symbol));
    if (pending?.category === 'SPOT') attachSpotPresets(context, pending);
    else if (pending && instrument) attach(context, instrument, pending);
  }
  return true;
}
