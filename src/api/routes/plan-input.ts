/**
 * Reading plan-order requests off the v2 mix wire (spec §3, §4; wire.md §5.4; endpoints.md
 * §6) into engine terms. v2 hedge semantics as for ordinary orders (wire.md §6): `side` is the
 * position direction and `tradeSide` open/close, so close long is buy + close. Rules enforced
 * here are the wire's: which fields go together; the engine checks prices, sizes, positions.
 *
 * ccxt's shapes (its createOrderRequest): trigger orders carry `executePrice`, trailing stops
 * `callbackRatio` and `triggerPrice`, hedge closes `tradeSide: Close` with the side flipped.
 *
 * Choices where the venue is silent (docs/triggers.md): `tradeSide` in one-way mode and
 * `reduceOnly: YES` in hedge mode are refused with 40774; a `price` on a market plan is
 * refused; `presetStopSurplusPrice` / `presetStopLossPrice` are read as the TP / SL trigger
 * when `stopSurplusTriggerPrice` / `stopLossTriggerPrice` are absent.
 */
import type { PlanRequest } from '../../domain/commands.ts';
import { CLIENT_OID_PATTERN, ORDER_SIDES, ORDER_TYPES, STP_MODES } from '../../domain/order.ts';
import { TPSL_PLAN_TYPES, TRIGGER_TYPES, type PlanPreset, type PlanType } from '../../domain/plan.ts';
import { MARGIN_MODES, type PositionMode } from '../../domain/position.ts';
import {
  optionalDecimal,
  optionalEnum,
  optionalString,
  requiredDecimal,
  requiredEnum,
  requiredString,
  type Fields,
} from '../params.ts';
import { reject } from '../request.ts';

/** An absent or zero decimal text ("0", "0.00"): the venue's way of leaving a price unset. */
export const isZero = (text: string | undefined) => text === undefined || /^0*(\.0*)?$/.test(text);

export function planClientOid(fields: Fields, name = 'clientOid'): string | undefined {
  const clientOid = optionalString(fields, name);
  if (clientOid !== undefined && !CLIENT_OID_PATTERN.test(clientOid)) reject('PARAM_ERROR', name);
  return clientOid;
}

/** A TP or SL preset: empty or 0 trigger means none; the trigger type is then required. */
export function presetOf(
  fields: Fields,
  name: 'stopSurplus' | 'stopLoss',
  fallbackTrigger?: string,
): PlanPreset | undefined {
  const triggerPrice = optionalDecimal(fields, `${name}TriggerPrice`) ?? fallbackTrigger;
  if (isZero(triggerPrice) || triggerPrice === undefined) return undefined;
  const triggerType =
    optionalEnum(fields, `${name}TriggerType`, TRIGGER_TYPES) ??
    (fallbackTrigger !== undefined ? 'fill_price' : undefined);
  if (!triggerType) reject('PARAM_EMPTY', `${name}TriggerType`);
  const executePrice = optionalDecimal(fields, `${name}ExecutePrice`);
  return { triggerPrice, triggerType, executePrice: isZero(executePrice) ? '' : (executePrice ?? '') };
}

/** v2 side/tradeSide/reduceOnly → the engine's trade direction, position side and reduceOnly. */
function v2Direction(
  fields: Fields,
  posMode: PositionMode,
): Pick<PlanRequest, 'side' | 'posSide' | 'reduceOnly'> {
  const side = requiredEnum(fields, 'side', ORDER_SIDES);
  const tradeSide = optionalEnum(fields, 'tradeSide', ['open', 'close'] as const);
  const reduceOnly = optionalEnum(fields, 'reduceOnly', ['yes', 'no'] as const) === 'yes';
  if (posMode === 'hedge_mode') {
    if (!tradeSide || reduceOnly) reject('POSITION_MODE_MISMATCH', 'tradeSide');
    const posSide = side === 'buy' ? 'long' : 'short';
    return { side: tradeSide === 'close' ? (side === 'buy' ? 'sell' : 'buy') : side, posSide };
  }
  if (tradeSide) reject('POSITION_MODE_MISMATCH', 'tradeSide');
  return reduceOnly ? { side, reduceOnly: true } : { side };
}

/** POST /api/v2/mix/order/place-plan-order (spec §3). */
export function parsePlacePlan(body: Fields, posMode: PositionMode): PlanRequest {
  const planType = requiredEnum(body, 'planType', ['normal_plan', 'track_plan'] as const);
  const symbol = requiredString(body, 'symbol').toUpperCase();
  const marginMode = requiredEnum(body, 'marginMode', MARGIN_MODES);
  const marginCoin = requiredString(body, 'marginCoin').toUpperCase();
  const size = requiredDecimal(body, 'size');
  const triggerPrice = requiredDecimal(body, 'triggerPrice');
  const triggerType = requiredEnum(body, 'triggerType', TRIGGER_TYPES);
  const orderType = requiredEnum(body, 'orderType', ORDER_TYPES);
  // ccxt sends the execute price as `executePrice` (beside `price` for limit orders, alone for
  // a market order given a price); it is read as the limit price and ignored on a market order.
  const price =
    optionalDecimal(body, 'price') ??
    (orderType === 'limit' ? optionalDecimal(body, 'executePrice') : undefined);
  const callbackRatio = optionalDecimal(body, 'callbackRatio');
  if (planType === 'track_plan') {
    if (orderType !== 'market') reject('PARAM_ERROR', 'orderType');
    if (price !== undefined) reject('PARAM_ERROR', 'price');
    if (callbackRatio === undefined) reject('PARAM_EMPTY', 'callbackRatio');
  } else if (orderType === 'limit' && price === undefined) reject('PARAM_EMPTY', 'price');
  else if (orderType === 'market' && price !== undefined) reject('PARAM_ERROR', 'price');
  const request: PlanRequest = {
    planType,
    symbol,
    triggerType,
    triggerPrice,
    orderType,
    size,
    marginMode,
    marginCoin,
    stpMode: optionalEnum(body, 'stpMode', STP_MODES) ?? 'none',
    ...v2Direction(body, posMode),
  };
  if (price !== undefined) request.price = price;
  if (planType === 'track_plan' && callbackRatio !== undefined) request.callbackRatio = callbackRatio;
  const clientOid = planClientOid(body);
  if (clientOid !== undefined) request.clientOid = clientOid;
  const takeProfit = presetOf(body, 'stopSurplus', optionalDecimal(body, 'presetStopSurplusPrice'));
  const stopLoss = presetOf(body, 'stopLoss', optionalDecimal(body, 'presetStopLossPrice'));
  if (takeProfit) request.takeProfit = takeProfit;
  if (stopLoss) request.stopLoss = stopLoss;
  return request;
}

/** v2 holdSide of TP/SL requests: long/short, or (one-way) buy = the long, sell = the short. */
export function holdSideOf(fields: Fields): 'long' | 'short' {
  const holdSide = requiredEnum(fields, 'holdSide', ['long', 'short', 'buy', 'sell'] as const);
  return holdSide === 'long' || holdSide === 'buy' ? 'long' : 'short';
}

/** One TP/SL plan: market when the execute price is empty or 0. */
export function tpslRequest(fields: {
  planType: PlanType;
  symbol: string;
  holdSide: 'long' | 'short';
  triggerPrice: string;
  triggerType: PlanRequest['triggerType'];
  executePrice: string | undefined;
  size: string | undefined;
  clientOid: string | undefined;
  stpMode: PlanRequest['stpMode'];
}): PlanRequest {
  const limit = !isZero(fields.executePrice);
  const request: PlanRequest = {
    planType: fields.planType,
    symbol: fields.symbol,
    triggerType: fields.triggerType,
    triggerPrice: fields.triggerPrice,
    orderType: limit ? 'limit' : 'market',
    side: fields.holdSide === 'long' ? 'sell' : 'buy',
    posSide: fields.holdSide,
    stpMode: fields.stpMode,
  };
  if (limit && fields.executePrice !== undefined) request.price = fields.executePrice;
  if (fields.size !== undefined && fields.planType !== 'pos_profit' && fields.planType !== 'pos_loss')
    request.size = fields.size;
  if (fields.clientOid !== undefined) request.clientOid = fields.clientOid;
  return request;
}

/** POST /api/v2/mix/order/place-tpsl-order (endpoints.md §6.4). */
export function parsePlaceTpsl(body: Fields): PlanRequest {
  const planType = requiredEnum(body, 'planType', TPSL_PLAN_TYPES);
  requiredString(body, 'marginCoin');
  const executePrice = optionalDecimal(body, 'executePrice');
  if (planType === 'moving_plan' && !isZero(executePrice)) reject('PARAM_ERROR', 'executePrice');
  const partial = planType !== 'pos_profit' && planType !== 'pos_loss';
  const request = tpslRequest({
    planType,
    symbol: requiredString(body, 'symbol').toUpperCase(),
    holdSide: holdSideOf(body),
    triggerPrice: requiredDecimal(body, 'triggerPrice'),
    triggerType: optionalEnum(body, 'triggerType', TRIGGER_TYPES) ?? 'fill_price',
    executePrice,
    size: partial ? requiredDecimal(body, 'size') : undefined,
    clientOid: planClientOid(body),
    stpMode: optionalEnum(body, 'stpMode', STP_MODES) ?? 'none',
  });
  if (planType === 'moving_plan') request.callbackRatio = requiredDecimal(body, 'rangeRate');
  return request;
}

/** POST /api/v2/mix/order/place-pos-tpsl (endpoints.md §6.5): a TP leg and/or an SL leg. */
export function parsePlacePositionTpsl(body: Fields): PlanRequest[] {
  requiredString(body, 'marginCoin');
  const symbol = requiredString(body, 'symbol').toUpperCase();
  const holdSide = holdSideOf(body);
  const stpMode = optionalEnum(body, 'stpMode', STP_MODES) ?? 'none';
  const legs: PlanRequest[] = [];
  for (const [name, whole, part] of [
    ['stopSurplus', 'pos_profit', 'profit_plan'],
    ['stopLoss', 'pos_loss', 'loss_plan'],
  ] as const) {
    const triggerPrice = optionalDecimal(body, `${name}TriggerPrice`);
    if (isZero(triggerPrice) || triggerPrice === undefined) continue;
    const size = optionalDecimal(body, `${name}Size`);
    legs.push(
      tpslRequest({
        planType: size === undefined ? whole : part,
        symbol,
        holdSide,
        triggerPrice,
        triggerType: optionalEnum(body, `${name}TriggerType`, TRIGGER_TYPES) ?? 'fill_price',
        executePrice: optionalDecimal(body, `${name}ExecutePrice`),
        size,
        clientOid: planClientOid(body, `${name}ClientOid`),
        stpMode,
      }),
    );
  }
  if (legs.length === 0) reject('PARAM_EMPTY', 'stopSurplusTriggerPrice');
  return legs;
}

/**
 * The plan types a `planType` filter selects. cancel-plan-order: normal_plan (default),
 * profit_plan, loss_plan, pos_profit, pos_loss, moving_plan and ccxt's track_plan (trailing
 * orders: track_plan and moving_plan); profit_loss (as orders-plan-pending names every TP/SL
 * type) is accepted too.
 */
export function planTypeFilter(text: string | undefined, fallback: string): PlanType[] {
  const value = (text ?? fallback).toLowerCase();
  if (value === 'profit_loss') return [...TPSL_PLAN_TYPES];
  if (value === 'track_plan' || value === 'moving_plan') return ['track_plan', 'moving_plan'];
  const known = ['normal_plan', 'profit_plan', 'loss_plan', 'pos_profit', 'pos_loss'] as const;
  const match = known.find((candidate) => candidate === value);
  if (!match) reject('PARAM_ERROR', 'planType');
  return [match];
}
