/**
 * Reading v2 spot plan-order requests (place-plan-order, modify-plan-order) into engine terms.
 * The wire's `planType` is the size unit (`amount`: base coin, the default; `total`: quote
 * coin); the engine's plan type is always normal_plan. `force` (gtc by default, any case: ccxt
 * sends "GTC") is the time in force of the limit order the plan places.
 *
 * ccxt sends a limit plan's price as both `price` and `executePrice`, and a market plan given a
 * price (a market buy sized from amount × price) with `executePrice` too: the execute price is
 * read from `executePrice`, else `price`, and ignored on a market plan.
 */
import type { ModifyPlanOrder, PlanReference, PlanRequest } from '../../domain/commands.ts';
import { ORDER_SIDES, ORDER_TYPES, STP_MODES, TIMES_IN_FORCE } from '../../domain/order.ts';
import { TRIGGER_TYPES } from '../../domain/plan.ts';
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
import { planClientOid } from './plan-input.ts';

const SIZE_UNITS = ['amount', 'total'] as const;

function executePriceOf(fields: Fields, orderType: 'limit' | 'market'): string | undefined {
  if (orderType === 'market') return undefined;
  const price = optionalDecimal(fields, 'executePrice') ?? optionalDecimal(fields, 'price');
  if (price === undefined) reject('PARAM_EMPTY', 'executePrice');
  return price;
}

/** POST /api/v2/spot/trade/place-plan-order. */
export function parseSpotPlan(body: Fields): PlanRequest {
  const orderType = requiredEnum(body, 'orderType', ORDER_TYPES);
  const request: PlanRequest = {
    planType: 'normal_plan',
    symbol: requiredString(body, 'symbol').toUpperCase(),
    side: requiredEnum(body, 'side', ORDER_SIDES),
    triggerPrice: requiredDecimal(body, 'triggerPrice'),
    triggerType: requiredEnum(body, 'triggerType', TRIGGER_TYPES),
    orderType,
    size: requiredDecimal(body, 'size'),
    sizeUnit: optionalEnum(body, 'planType', SIZE_UNITS) ?? 'amount',
    timeInForce: optionalEnum(body, 'force', TIMES_IN_FORCE) ?? 'gtc',
    stpMode: optionalEnum(body, 'stpMode', STP_MODES) ?? 'none',
  };
  const price = executePriceOf(body, orderType);
  if (price !== undefined) request.price = price;
  const clientOid = planClientOid(body);
  if (clientOid !== undefined) request.clientOid = clientOid;
  return request;
}

/** orderId wins over clientOid, as on the venue. */
export function spotPlanReference(fields: Fields): PlanReference {
  const planId = optionalString(fields, 'orderId');
  const clientOid = optionalString(fields, 'clientOid');
  if (!planId && !clientOid) reject('PARAM_EMPTY', 'orderId');
  return planId ? { planId } : { clientOid: clientOid ?? '' };
}

/** POST /api/v2/spot/trade/modify-plan-order: triggerPrice, orderType and size are required. */
export function parseSpotModify(body: Fields): Omit<ModifyPlanOrder, 'type' | 'timeMs' | 'uid'> {
  const orderType = requiredEnum(body, 'orderType', ORDER_TYPES);
  const price = executePriceOf(body, orderType);
  return {
    category: 'SPOT',
    reference: spotPlanReference(body),
    planTypes: ['normal_plan'],
    triggerPrice: requiredDecimal(body, 'triggerPrice'),
    orderType,
    size: requiredDecimal(body, 'size'),
    ...(price !== undefined ? { price } : {}),
  };
}
