/**
 * TP/SL presets of ordinary futures orders (v2 mix `presetStopSurplusPrice` /
 * `presetStopLossPrice`, v3 `takeProfit` / `stopLoss`, their batch forms and modifications).
 * They are checked when the order is placed, kept on the order (its detail and pushes report
 * them), and handed to the mechanism plan orders' presets use (presets.ts): when the order
 * first fills they become the pos_profit / pos_loss plans of the position it opened, as one
 * pair (a group: when one fires the other is cancelled).
 *
 * Rules (docs/triggers.md):
 * - only an order that opens may carry presets (hedge: side and position side agree; one-way:
 *   not reduce-only); a close order's are refused (40020 / 25200);
 * - prices on the instrument's grid; an execute price makes the TP/SL a limit order;
 * - a limit order's TP must lie beyond its limit price on the profit side (above for a long)
 *   and its SL on the loss side (40895 otherwise); a market order's are compared with the
 *   current price of their trigger source (40830/40832/40834/40836), when it has one.
 *
 * Limits: presets attach once, at the first fill, and protect the whole position (later
 * fills of the same order are covered because the plans are whole-position ones). A one-way
 * order that only reduces the opposite position opens none, so its presets end unused.
 * Presets are trigger prices, never percentages.
 */
import type { OrderRequest } from '../../domain/commands.ts';
import type { Order } from '../../domain/order.ts';
import { parseMoney } from '../../domain/money.ts';
import type { PlanPreset } from '../../domain/plan.ts';
import type { HoldSide } from '../../domain/position.ts';
import { fail, ok, type Failure, type Outcome } from '../../domain/result-code.ts';
import { ticksToMoney } from '../instruments/scales.ts';
import type { TradingContext } from '../trading/trading-context.ts';
import type { ValidOrder } from '../trading/validate.ts';
import { referencePriceFor } from './prices.ts';
import { directionOf, presetOf } from './validate.ts';

export interface OrderPresets {
  takeProfit?: PlanPreset;
  stopLoss?: PlanPreset;
}

/** What a futures order does, as futures/place.ts resolved it. */
export interface PresetIntent {
  holdSide: HoldSide;
  tradeSide: 'open' | 'close';
}

type Kind = 'take_profit' | 'stop_loss';

/** The wire-neutral name of a preset in errors: v3's field names. */
const FIELD: Record<Kind, string> = { take_profit: 'takeProfit', stop_loss: 'stopLoss' };

/** A preset on the wrong side of the price it is compared with; null when it is placed well. */
function misplaced(
  trading: TradingContext,
  valid: ValidOrder,
  orderType: OrderRequest['orderType'],
  kind: Kind,
  holdSide: HoldSide,
  preset: PlanPreset,
): Failure | null {
  const { state } = trading.context;
  const trigger = parseMoney(preset.triggerPrice) ?? 0n;
  const limit = orderType === 'limit';
  const reference = limit
    ? ticksToMoney(valid.instrument, valid.priceTicks)
    : referencePriceFor(state, trading.books, valid.instrument, preset.triggerType);
  if (reference === null) return null;
  const direction = directionOf(kind, holdSide, trigger, reference);
  if (direction.ok) return null;
  return limit ? { code: 'PRESET_PRICE_INVALID', params: [FIELD[kind]] } : direction;
}

/** Checks an order's presets against what it does and its price; the normalised presets. */
export function checkOrderPresets(
  trading: TradingContext,
  valid: ValidOrder,
  request: Pick<OrderRequest, 'orderType' | 'takeProfit' | 'stopLoss'>,
  intent: PresetIntent,
): Outcome<OrderPresets> {
  if (!request.takeProfit && !request.stopLoss) return ok({});
  if (intent.tradeSide === 'close')
    return fail('PARAM_ERROR', request.takeProfit ? 'takeProfit' : 'stopLoss');
  const presets: OrderPresets = {};
  for (const [kind, preset] of [
    ['take_profit', request.takeProfit],
    ['stop_loss', request.stopLoss],
  ] as const) {
    if (!preset) continue;
    const checked = presetOf(
      valid.instrument,
      preset,
      'normal_plan',
      kind === 'take_profit' ? 'stopSurplus' : 'stopLoss',
    );
    if (!checked.ok) return checked;
    const wrong = misplaced(trading, valid, request.orderType, kind, intent.holdSide, checked.value);
    if (wrong) return { ok: false, ...wrong };
    presets[kind === 'take_profit' ? 'takeProfit' : 'stopLoss'] = checked.value;
  }
  return ok(presets);
}

/**
 * Puts presets on an open futures order (replacing what it had) and, while it has not filled,
 * makes them wait for its first fill; an order without presets waits for nothing.
 */
export function setOrderPresets(trading: TradingContext, order: Order, presets: OrderPresets): void {
  const futures = order.futures;
  if (!futures) return;
  delete futures.takeProfit;
  delete futures.stopLoss;
  if (presets.takeProfit) futures.takeProfit = presets.takeProfit;
  if (presets.stopLoss) futures.stopLoss = presets.stopLoss;
  const awaiting = trading.context.state.plans.awaitingFill;
  if (order.filledLots > 0) return;
  if (!presets.takeProfit && !presets.stopLoss) {
    awaiting.delete(order.orderId);
    return;
  }
  awaiting.set(order.orderId, {
    uid: order.uid,
    category: order.category,
    symbol: order.symbol,
    holdSide: futures.holdSide,
    planType: 'normal_plan',
    stpMode: order.stpMode,
    ...presets,
  });
}

/**
 * The presets an open order will carry after a modification (v3 modify-order): null when the
 * modification does not touch them. Only an order without fills may change them: after its
 * first fill they are the position's TP/SL plans, changed through the plan endpoints.
 */
export function presetsAfterModify(
  trading: TradingContext,
  order: Order,
  valid: ValidOrder,
  changes: { takeProfit?: PlanPreset | null; stopLoss?: PlanPreset | null },
): Outcome<OrderPresets | null> {
  if (changes.takeProfit === undefined && changes.stopLoss === undefined) return ok(null);
  const futures = order.futures;
  if (!futures)
    return fail('SPOT_TPSL_UNSUPPORTED', changes.takeProfit !== undefined ? 'takeProfit' : 'stopLoss');
  if (order.filledLots > 0) return fail('ORDER_NOT_MODIFIABLE');
  const takeProfit = changes.takeProfit === undefined ? futures.takeProfit : changes.takeProfit;
  const stopLoss = changes.stopLoss === undefined ? futures.stopLoss : changes.stopLoss;
  return checkOrderPresets(
    trading,
    valid,
    { orderType: 'limit', ...(takeProfit ? { takeProfit } : {}), ...(stopLoss ? { stopLoss } : {}) },
    futures,
  );
}
