/**
 * Validation of a new plan (docs/triggers.md): instrument and account, prices on
 * the instrument's grid, sizes within its limits, the order it would place resolved by
 * position mode (hedge: side + posSide; one-way: side, reduceOnly closes), trailing callback
 * ratios (0 < r ≤ 10 %), TP/SL against the position they protect and the current price, and
 * presets against the price the plan will execute at. Nothing is held: a plan reserves no
 * margin until it fires, so the order it places is checked again then.
 */
import { isFutures, type Category } from '../../domain/category.ts';
import type { PlanRequest } from '../../domain/commands.ts';
import { formatScaled, parseScaled } from '../../domain/decimal.ts';
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import { parseMoney } from '../../domain/money.ts';
import {
  isTpslPlan,
  isTrailingPlan,
  PERCENT_SCALE,
  type Plan,
  type PlanPreset,
  type TrailingState,
} from '../../domain/plan.ts';
import { positionKey, type HoldSide, type PositionMode } from '../../domain/position.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import { valueAt } from '../futures/risk.ts';
import { positionModeOf, settingsOf } from '../futures/settings.ts';
import { priceToTicks, quantityToLots, scalesOf, ticksToMoney } from '../instruments/scales.ts';
import { checkTradable } from '../trading/validate.ts';
import type { TradingContext } from '../trading/trading-context.ts';
import { planLimitFailure } from './limits.ts';
import { referencePriceFor } from './prices.ts';
import { priceText } from './view.ts';

/** A validated plan before it gets its id, sequence and times. */
export type NewPlan = Omit<
  Plan,
  'planId' | 'sequence' | 'status' | 'executeOrderId' | 'createdTimeMs' | 'updatedTimeMs'
>;

const PERCENT = (text: string) => parseScaled(text, PERCENT_SCALE) ?? -1n;
const MAX_CALLBACK_RATIO = PERCENT('10');
const MIN_PRESET_PERCENT = PERCENT('0.01');
const MAX_PRESET_PERCENT = PERCENT('999.99');

/** A price on the instrument's grid, in money units. */
export function gridPrice(instrument: Instrument, text: string, name: string): Outcome<bigint> {
  const ticks = priceToTicks(instrument, text);
  const tick = instrument.priceMultiplier || '1';
  if (ticks === 'precision') return fail('PRICE_PRECISION_INVALID', `${name} scale error`, tick);
  if (ticks === 'step') return fail('PRICE_STEP_INVALID', name, tick);
  if (ticks === 'range' || ticks <= 0) return fail('PARAM_ERROR', name);
  return ok(ticksToMoney(instrument, ticks));
}

export function planLots(instrument: Instrument, text: string | undefined, market: boolean): Outcome<number> {
  if (text === undefined) return fail('PARAM_EMPTY', 'size');
  const lots = quantityToLots(instrument, text);
  const places = scalesOf(instrument).quantityPlaces;
  if (lots === 'precision')
    return fail('QUANTITY_PRECISION_INVALID', `size checkBDScale error value=${text} checkScale=${places}`);
  if (lots === 'step') return fail('QUANTITY_STEP_INVALID', instrument.symbol, instrument.quantityMultiplier);
  if (lots === 'range' || lots <= 0) return fail('PARAM_ERROR', 'size');
  const minLots = instrument.minOrderQty ? quantityToLots(instrument, instrument.minOrderQty) : 0;
  if (typeof minLots === 'number' && lots < minLots)
    return fail('QUANTITY_BELOW_MINIMUM', instrument.symbol, instrument.minOrderQty);
  const maxText = market ? instrument.maxMarketOrderQty : instrument.maxOrderQty;
  const maxLots = maxText ? quantityToLots(instrument, maxText) : Number.MAX_SAFE_INTEGER;
  if (typeof maxLots === 'number' && lots > maxLots)
    return fail('QUANTITY_ABOVE_MAXIMUM', instrument.symbol, maxText);
  return ok(lots);
}

export function trailingOf(text: string | undefined, name = 'callbackRatio'): Outcome<TrailingState> {
  if (text === undefined) return fail('PARAM_EMPTY', name);
  const ratio = PERCENT(text);
  if (ratio <= 0n || ratio > MAX_CALLBACK_RATIO) return fail('PARAM_ERROR', name);
  return ok({
    callbackRatio: formatScaled(ratio, PERCENT_SCALE),
    ratioScaled: ratio,
    activated: false,
    extremePrice: 0n,
  });
}

interface Sides {
  side: Plan['side'];
  holdSide: HoldSide;
  tradeSide: 'open' | 'close';
  reduceOnly: boolean;
}

/** The order a plan will place, resolved as futures/place.ts resolves an order's intent. */
function sidesOf(request: PlanRequest, posMode: PositionMode): Outcome<Sides> {
  if (isTpslPlan(request.planType)) {
    if (!request.posSide) return fail('PARAM_EMPTY', 'holdSide');
    const holdSide = request.posSide;
    const side = holdSide === 'long' ? 'sell' : 'buy';
    return ok({ side, holdSide, tradeSide: 'close', reduceOnly: posMode === 'one_way_mode' });
  }
  const { side } = request;
  if (posMode === 'hedge_mode') {
    if (!request.posSide) return fail('POSITION_MODE_MISMATCH', 'tradeSide');
    const opening = (side === 'buy') === (request.posSide === 'long');
    return ok({ side, holdSide: request.posSide, tradeSide: opening ? 'open' : 'close', reduceOnly: false });
  }
  if (request.reduceOnly)
    return ok({ side, holdSide: side === 'buy' ? 'short' : 'long', tradeSide: 'close', reduceOnly: true });
  return ok({ side, holdSide: side === 'buy' ? 'long' : 'short', tradeSide: 'open', reduceOnly: false });
}

type Kind = 'take_profit' | 'stop_loss' | 'trigger';

function kindOf(planType: Plan['planType']): Kind {
  if (planType === 'profit_plan' || planType === 'pos_profit') return 'take_profit';
  if (planType === 'loss_plan' || planType === 'pos_loss') return 'stop_loss';
  return 'trigger';
}

/** TP: the price must rise (long) or fall (short) to it; SL the reverse. */
export function exitDirection(kind: 'take_profit' | 'stop_loss', holdSide: HoldSide): 'up' | 'down' {
  return (kind === 'take_profit') === (holdSide === 'long') ? 'up' : 'down';
}

const EXIT_PRICE_FAILURES = {
  take_profit: { long: 'TAKE_PROFIT_LONG_PRICE_INVALID', short: 'TAKE_PROFIT_SHORT_PRICE_INVALID' },
  stop_loss: { long: 'STOP_LOSS_LONG_PRICE_INVALID', short: 'STOP_LOSS_SHORT_PRICE_INVALID' },
} as const;

/** Where a new plan waits: TP/SL by kind (refused if already touched), others by the price now. */
export function directionOf(
  kind: Kind,
  holdSide: HoldSide,
  trigger: bigint,
  reference: bigint,
): Outcome<'up' | 'down'> {
  if (kind === 'trigger') return ok(trigger >= reference ? 'up' : 'down');
  const direction = exitDirection(kind, holdSide);
  const waiting = direction === 'up' ? trigger > reference : trigger < reference;
  return waiting ? ok(direction) : fail(EXIT_PRICE_FAILURES[kind][holdSide], 'triggerPrice');
}

/** A preset of a trigger order, checked and normalised (normal_plan: prices; track_plan: percentages). */
export function presetOf(
  instrument: Instrument,
  preset: PlanPreset,
  planType: Plan['planType'],
  name: 'stopSurplus' | 'stopLoss',
): Outcome<PlanPreset> {
  if (planType === 'track_plan') {
    const percent = PERCENT(preset.triggerPrice);
    if (percent < MIN_PRESET_PERCENT || percent > MAX_PRESET_PERCENT)
      return fail('PARAM_ERROR', `${name}TriggerPrice`);
    if (preset.triggerType !== 'fill_price') return fail('PARAM_ERROR', `${name}TriggerType`);
    if (preset.executePrice !== '') return fail('PARAM_ERROR', `${name}ExecutePrice`);
    return ok({ ...preset, triggerPrice: formatScaled(percent, PERCENT_SCALE) });
  }
  const trigger = gridPrice(instrument, preset.triggerPrice, `${name}TriggerPrice`);
  if (!trigger.ok) return trigger;
  let executePrice = '';
  if (preset.executePrice !== '' && parseMoney(preset.executePrice) !== 0n) {
    const execute = gridPrice(instrument, preset.executePrice, `${name}ExecutePrice`);
    if (!execute.ok) return execute;
    executePrice = priceText(instrument, execute.value);
  }
  return ok({ ...preset, triggerPrice: priceText(instrument, trigger.value), executePrice });
}

/** normal_plan presets must lie on the profit (TP) and loss (SL) side of the price it executes at. */
export function presetsConsistent(
  plan: Pick<NewPlan, 'planType' | 'executePrice' | 'triggerPrice' | 'holdSide' | 'takeProfit' | 'stopLoss'>,
  instrument: Instrument,
): boolean {
  if (plan.planType !== 'normal_plan') return true;
  const reference = plan.executePrice > 0n ? plan.executePrice : plan.triggerPrice;
  const long = plan.holdSide === 'long';
  const priceOf = (preset: PlanPreset) => gridPrice(instrument, preset.triggerPrice, 'preset');
  const tp = plan.takeProfit ? priceOf(plan.takeProfit) : undefined;
  const sl = plan.stopLoss ? priceOf(plan.stopLoss) : undefined;
  if (tp?.ok && (long ? tp.value <= reference : tp.value >= reference)) return false;
  if (sl?.ok && (long ? sl.value >= reference : sl.value <= reference)) return false;
  return true;
}

function withPresets(plan: NewPlan, instrument: Instrument, request: PlanRequest): Outcome<NewPlan> {
  if (!request.takeProfit && !request.stopLoss) return ok(plan);
  if (plan.tradeSide === 'close' || isTpslPlan(plan.planType))
    return fail('PARAM_ERROR', request.takeProfit ? 'stopSurplusTriggerPrice' : 'stopLossTriggerPrice');
  for (const [preset, name] of [
    [request.takeProfit, 'stopSurplus'],
    [request.stopLoss, 'stopLoss'],
  ] as const) {
    if (!preset) continue;
    const checked = presetOf(instrument, preset, plan.planType, name);
    if (!checked.ok) return checked;
    plan[name === 'stopSurplus' ? 'takeProfit' : 'stopLoss'] = checked.value;
  }
  return presetsConsistent(plan, instrument) ? ok(plan) : fail('PRESET_PRICE_INVALID', 'preset');
}

function instrumentFor(
  trading: TradingContext,
  uid: string,
  category: Category,
  symbol: string,
): Outcome<Instrument> {
  const { state, nowMs } = trading.context;
  const instrument = state.instruments.get(instrumentKey(category, symbol));
  if (!instrument || !isFutures(category)) return fail('SYMBOL_NOT_FOUND', symbol);
  const tradable = checkTradable(instrument, nowMs);
  if (!tradable.ok) return tradable;
  if (!state.accounts.has(uid)) return fail('ACCOUNT_NOT_FOUND', uid);
  return ok(instrument);
}

/** Size and (TP/SL) the position protected; trigger plans must also meet the minimum amount. */
function sizeFor(
  trading: TradingContext,
  uid: string,
  instrument: Instrument,
  request: PlanRequest,
  sides: Sides,
  priceMoney: bigint,
): Outcome<{ sizeLots: number; positionId?: string }> {
  const market = request.orderType === 'market';
  if (isTpslPlan(request.planType)) {
    const key = positionKey(uid, instrument.category, instrument.symbol, sides.holdSide);
    const position = trading.context.state.positions.get(key);
    if (!position) return fail('TPSL_NO_POSITION');
    if (request.planType === 'pos_profit' || request.planType === 'pos_loss')
      return ok({ sizeLots: 0, positionId: position.positionId });
    const lots = planLots(instrument, request.size, market);
    if (!lots.ok) return lots;
    if (lots.value > position.sizeLots) return fail('TPSL_POSITION_INSUFFICIENT');
    return ok({ sizeLots: lots.value, positionId: position.positionId });
  }
  const lots = planLots(instrument, request.size, market);
  if (!lots.ok) return lots;
  const minimum = instrument.minOrderAmount ? parseMoney(instrument.minOrderAmount) : null;
  if (minimum !== null && valueAt(instrument, lots.value, priceMoney) < minimum)
    return fail('AMOUNT_BELOW_MINIMUM', instrument.symbol, instrument.minOrderAmount, instrument.quoteCoin);
  return ok({ sizeLots: lots.value });
}

export function validatePlan(
  trading: TradingContext,
  uid: string,
  category: Category,
  request: PlanRequest,
): Outcome<NewPlan> {
  const { state } = trading.context;
  const found = instrumentFor(trading, uid, category, request.symbol);
  if (!found.ok) return found;
  const instrument = found.value;
  const trigger = gridPrice(instrument, request.triggerPrice, 'triggerPrice');
  if (!trigger.ok) return trigger;
  const limit = request.orderType === 'limit';
  if (limit && request.price === undefined) return fail('PARAM_EMPTY', 'price');
  const execute = limit ? gridPrice(instrument, request.price ?? '', 'price') : ok(0n);
  if (!execute.ok) return execute;
  const trailing = isTrailingPlan(request.planType) ? trailingOf(request.callbackRatio) : undefined;
  if (trailing && !trailing.ok) return trailing;
  if (trailing && limit) return fail('PARAM_ERROR', 'orderType');
  const posMode = positionModeOf(state, uid, category);
  const sides = sidesOf(request, posMode);
  if (!sides.ok) return sides;
  const settings = settingsOf(state, uid, instrument);
  if (request.marginMode && request.marginMode !== settings.marginMode)
    return fail('MARGIN_MODE_MISMATCH', 'marginMode');
  const size = sizeFor(trading, uid, instrument, request, sides.value, execute.value || trigger.value);
  if (!size.ok) return size;
  const reference = referencePriceFor(state, trading.books, instrument, request.triggerType);
  if (reference === null) return fail('PRICE_UNAVAILABLE');
  const kind = kindOf(request.planType);
  const direction = directionOf(kind, sides.value.holdSide, trigger.value, reference);
  if (!direction.ok) return direction;
  const limitFailure = planLimitFailure(state.plans, uid, instrument, request.planType);
  if (limitFailure) return { ok: false, ...limitFailure };
  const marginCoin =
    request.marginCoin && instrument.marginCoins.includes(request.marginCoin)
      ? request.marginCoin
      : (instrument.marginCoins[0] ?? instrument.quoteCoin);
  const plan: NewPlan = {
    clientOid: request.clientOid ?? '',
    uid,
    category,
    symbol: instrument.symbol,
    planType: request.planType,
    triggerType: request.triggerType,
    triggerPrice: trigger.value,
    direction: direction.value,
    orderType: request.orderType,
    executePrice: execute.value,
    ...sides.value,
    ...size.value,
    posMode,
    marginMode: settings.marginMode,
    marginCoin,
    stpMode: request.stpMode,
    ...(trailing ? { trailing: trailing.value } : {}),
  };
  return withPresets(plan, instrument, request);
}
