/**
 * Reading v3 strategy-order requests (endpoints.md §11) into plan requests: TP/SL legs
 * (`takeProfit`, `tpTriggerBy`, `tpOrderType`, `tpLimitPrice` and the `sl` twins; a `0`
 * price removes a leg when modifying) and trigger orders (`type: trigger`). `market` trigger
 * means the last price (the default), `mark` the mark price.
 */
import { isFutures, parseCategory, V3_CATEGORIES, type Category } from '../../domain/category.ts';
import type { PlanReference, PlanRequest } from '../../domain/commands.ts';
import { ORDER_SIDES, ORDER_TYPES } from '../../domain/order.ts';
import {
  TPSL_PLAN_TYPES,
  type PlanPreset,
  type PlanType,
  type PlanView,
  type TriggerType,
} from '../../domain/plan.ts';
import { HOLD_SIDES } from '../../domain/position.ts';
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
import { isZero, tpslRequest } from './plan-input.ts';
export const TRIGGER_PLANS: PlanType[] = ['normal_plan', 'track_plan'];

export function futuresCategory(fields: Fields): Category {
  const category = parseCategory(requiredString(fields, 'category'), V3_CATEGORIES);
  if (!category || !isFutures(category)) reject('PARAM_ERROR', 'category');
  return category;
}

/** The category of a strategy-order list: futures, or SPOT (the TP/SL pairs of spot orders). */
export function listedCategory(fields: Fields): Category {
  const category = parseCategory(requiredString(fields, 'category'), V3_CATEGORIES);
  if (!category || (!isFutures(category) && category !== 'SPOT')) reject('PARAM_ERROR', 'category');
  return category;
}

export function triggerByOf(fields: Fields, name: string): TriggerType {
  return optionalEnum(fields, name, ['market', 'mark'] as const) === 'mark' ? 'mark_price' : 'fill_price';
}

export function typesOf(fields: Fields): PlanType[] {
  const type = optionalEnum(fields, 'type', ['tpsl', 'trigger'] as const);
  return type === 'tpsl'
    ? [...TPSL_PLAN_TYPES]
    : type === 'trigger'
      ? TRIGGER_PLANS
      : [...TPSL_PLAN_TYPES, ...TRIGGER_PLANS];
}

export interface Leg {
  triggerPrice: string;
  triggerType: TriggerType;
  executePrice: string | undefined;
}

/** The wire's field names of a TP (`tp`) or SL (`sl`) leg. */
export interface LegFields {
  readonly price: 'takeProfit' | 'stopLoss';
  readonly triggerBy: string;
  readonly orderType: string;
  readonly limitPrice: string;
}

/**
 * Constants, not `${prefix}TriggerBy` built per read: every v3 order reads these six absent
 * fields, and a key built at run time makes each read hash a fresh string (about 3% of the
 * event loop under place-batch load).
 */
export const LEG_FIELDS: Readonly<Record<'tp' | 'sl', LegFields>> = {
  tp: { price: 'takeProfit', triggerBy: 'tpTriggerBy', orderType: 'tpOrderType', limitPrice: 'tpLimitPrice' },
  sl: { price: 'stopLoss', triggerBy: 'slTriggerBy', orderType: 'slOrderType', limitPrice: 'slLimitPrice' },
};

/** The TP (`tp`) or SL (`sl`) leg of a request; undefined when not asked, null when 0. */
export function legOf(fields: Fields, prefix: 'tp' | 'sl', current?: Leg): Leg | null | undefined {
  const names = LEG_FIELDS[prefix];
  const triggerPrice = optionalDecimal(fields, names.price);
  const by = optionalString(fields, names.triggerBy);
  const orderType = optionalEnum(fields, names.orderType, ORDER_TYPES);
  const limit = optionalDecimal(fields, names.limitPrice);
  if (triggerPrice === undefined && (!current || (!by && !orderType && limit === undefined))) return current;
  if (triggerPrice !== undefined && isZero(triggerPrice)) return null;
  const price = triggerPrice ?? current?.triggerPrice;
  if (price === undefined) reject('PARAM_EMPTY', names.price);
  const market = orderType ? orderType === 'market' : limit === undefined && !current?.executePrice;
  const executePrice = market ? undefined : (limit ?? current?.executePrice);
  if (!market && executePrice === undefined) reject('PARAM_EMPTY', names.limitPrice);
  return {
    triggerPrice: price,
    triggerType: by ? triggerByOf(fields, names.triggerBy) : (current?.triggerType ?? 'fill_price'),
    executePrice,
  };
}

export function tpslLegs(
  fields: Fields,
  base: { symbol: string; holdSide: 'long' | 'short'; qty: string | undefined; clientOid?: string },
  current: { tp?: Leg; sl?: Leg } = {},
): PlanRequest[] {
  const legs: PlanRequest[] = [];
  for (const [prefix, whole, part] of [
    ['tp', 'pos_profit', 'profit_plan'],
    ['sl', 'pos_loss', 'loss_plan'],
  ] as const) {
    const leg = legOf(fields, prefix, current[prefix]);
    if (!leg) continue;
    legs.push(
      tpslRequest({
        planType: base.qty === undefined ? whole : part,
        symbol: base.symbol,
        holdSide: base.holdSide,
        ...leg,
        size: base.qty,
        clientOid: base.clientOid,
        stpMode: 'none',
      }),
    );
  }
  if (legs.length === 0) reject('PARAM_EMPTY', 'takeProfit');
  return legs;
}

export function presetOfLeg(leg: Leg | null | undefined): PlanPreset | undefined {
  return leg
    ? { triggerPrice: leg.triggerPrice, triggerType: leg.triggerType, executePrice: leg.executePrice ?? '' }
    : undefined;
}

/** `type: trigger`: a normal_plan in v3 terms. */
export function triggerRequest(fields: Fields, symbol: string, hedge: boolean): PlanRequest {
  const orderType = optionalEnum(fields, 'triggerOrderType', ORDER_TYPES) ?? 'market';
  const request: PlanRequest = {
    planType: 'normal_plan',
    symbol,
    side: requiredEnum(fields, 'side', ORDER_SIDES),
    triggerType: triggerByOf(fields, 'triggerBy'),
    triggerPrice: requiredDecimal(fields, 'triggerPrice'),
    orderType,
    size: requiredDecimal(fields, 'qty'),
    stpMode: 'none',
  };
  if (orderType === 'limit') request.price = requiredDecimal(fields, 'triggerOrderPrice');
  const posSide = optionalEnum(fields, 'posSide', HOLD_SIDES);
  if (hedge && !posSide) reject('PARAM_EMPTY', 'posSide');
  if (hedge && posSide) request.posSide = posSide;
  if (!hedge && optionalEnum(fields, 'reduceOnly', ['yes', 'no'] as const) === 'yes')
    request.reduceOnly = true;
  const takeProfit = presetOfLeg(legOf(fields, 'tp'));
  const stopLoss = presetOfLeg(legOf(fields, 'sl'));
  if (takeProfit) request.takeProfit = takeProfit;
  if (stopLoss) request.stopLoss = stopLoss;
  return request;
}

export function reference(fields: Fields): PlanReference {
  const planId = optionalString(fields, 'orderId');
  const clientOid = optionalString(fields, 'clientOid');
  if (!planId && !clientOid) reject('PARAM_EMPTY', 'orderId');
  return planId ? { planId } : { clientOid: clientOid ?? '' };
}

export const legOfView = (view: PlanView | undefined): Leg | undefined =>
  view && {
    triggerPrice: view.triggerPrice,
    triggerType: view.triggerType,
    executePrice: view.executePrice || undefined,
  };

export function legOfPreset(preset: PlanPreset | undefined): Leg | undefined {
  return (
    preset && {
      triggerPrice: preset.triggerPrice,
      triggerType: preset.triggerType,
      executePrice: preset.executePrice || undefined,
    }
  );
}
