/**
 * A trigger price on v3 place-order (docs/triggers.md, "Trigger orders through v3
 * place-order"). The venue's v3 place-order has no trigger price: its trigger orders are
 * strategy orders (place-strategy-order `type: trigger`). ccxt's bitget nevertheless sends a
 * unified account's trigger orders (`createOrder` with `triggerPrice` or `stopPrice`) to
 * place-order, then lists, cancels and edits them as strategy orders. bourse serves them the
 * venue's way: such a place-order becomes the trigger strategy order it describes, on the same
 * plan engine, so nothing is accepted and ignored and ccxt finds the order where it looks.
 *
 * Fields: `triggerPrice` (or `stopPrice`), `triggerBy` (`market` | `mark`; ccxt's
 * `triggerType` `fill_price` | `mark_price` is read too), `orderType` and `price` (the order it
 * places), `qty`, `side`, `posSide` (hedge mode), `reduceOnly` (one-way mode), `clientOid`,
 * `stpMode` and the TP/SL presets. ccxt's trailing stops (`trailingPercent` or
 * `callbackRatio`, activated at `trailingTriggerPrice`) become a trailing trigger order
 * (track_plan), which the venue has on v2 only. Category SPOT: a spot plan of the unified
 * account (listed with the SPOT strategy orders), without presets or trailing. A futures time
 * in force other than gtc, MARGIN trigger orders and triggers in a batch are refused with their
 * field's name.
 */
import { isFutures, type Category } from '../../domain/category.ts';
import type { PlanRequest } from '../../domain/commands.ts';
import { ORDER_SIDES, ORDER_TYPES, STP_MODES, TIMES_IN_FORCE } from '../../domain/order.ts';
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
import type { Services } from '../services.ts';
import { positionModeOf } from '../../engine/futures/settings.ts';
import { submit } from './futures-service.ts';
import { isZero } from './plan-input.ts';
import { triggerRequest } from './strategy-input.ts';

const MARGIN_WHY = 'margin trigger orders are not served';
const SPOT_PRESET_WHY = 'a spot trigger order carries no TP/SL; put them on the order it places';
const SPOT_TRAILING_WHY = 'spot trailing stops are not served';
const TRAILING_PRESET_WHY = 'a trailing stop placed through place-order carries no TP/SL';
/** Why a batch item may not carry a trigger price (exported for place-batch). */
export const BATCH_TRIGGER_WHY = 'a trigger order is placed alone, with place-order or place-strategy-order';

/** A trigger order's trigger: its price, and for a trailing stop the callback ratio (percent). */
export interface OrderTrigger {
  triggerPrice: string;
  callbackRatio?: string;
}

const setDecimal = (fields: Fields, name: string) => {
  const value = optionalDecimal(fields, name);
  return value === undefined || isZero(value) ? undefined : value;
};

/**
 * The trigger a v3 order item carries, or undefined. A trailing stop (ccxt's
 * `trailingPercent`, or `callbackRatio`) activates at `trailingTriggerPrice`, else at
 * `triggerPrice`; a trigger order triggers at `triggerPrice` (or `stopPrice`).
 */
export function orderTriggerOf(fields: Fields): OrderTrigger | undefined {
  const ratio = setDecimal(fields, 'trailingPercent') ?? setDecimal(fields, 'callbackRatio');
  const activation = setDecimal(fields, 'trailingTriggerPrice');
  const trigger = setDecimal(fields, 'triggerPrice') ?? setDecimal(fields, 'stopPrice');
  if (ratio === undefined) {
    if (activation !== undefined) reject('PARAM_EMPTY', 'trailingPercent');
    return trigger === undefined ? undefined : { triggerPrice: trigger };
  }
  const triggerPrice = activation ?? trigger;
  if (triggerPrice === undefined) reject('PARAM_EMPTY', 'trailingTriggerPrice');
  return { triggerPrice, callbackRatio: ratio };
}

/** The trigger source: `triggerBy` (v3 words) or ccxt's `triggerType` (v2 words). */
function triggerByOf(fields: Fields): 'market' | 'mark' | undefined {
  const by = optionalEnum(fields, 'triggerBy', ['market', 'mark'] as const);
  const type = optionalEnum(fields, 'triggerType', ['fill_price', 'mark_price'] as const);
  if (by && type && (by === 'mark') !== (type === 'mark_price')) reject('PARAM_ERROR', 'triggerType');
  return by ?? (type ? (type === 'mark_price' ? 'mark' : 'market') : undefined);
}

/**
 * A SPOT trigger order: a spot plan (engine/triggers/spot.ts) of the unified account, sized as
 * v3 spot orders are (`qty` in quote coin for a market buy, else in base coin).
 */
function spotTriggerPlan(fields: Fields, triggerPrice: string): PlanRequest {
  for (const name of ['takeProfit', 'stopLoss'])
    if (!isZero(optionalDecimal(fields, name))) reject('FIELD_UNSERVED', name, SPOT_PRESET_WHY);
  const orderType = requiredEnum(fields, 'orderType', ORDER_TYPES);
  const side = requiredEnum(fields, 'side', ORDER_SIDES);
  const by = triggerByOf(fields);
  const plan: PlanRequest = {
    planType: 'normal_plan',
    symbol: requiredString(fields, 'symbol').toUpperCase(),
    side,
    triggerType: by === 'mark' ? 'mark_price' : 'fill_price',
    triggerPrice,
    orderType,
    size: requiredDecimal(fields, 'qty'),
    stpMode: optionalEnum(fields, 'stpMode', STP_MODES) ?? 'none',
    sizeUnit: orderType === 'market' && side === 'buy' ? 'total' : 'amount',
    timeInForce: optionalEnum(fields, 'timeInForce', TIMES_IN_FORCE) ?? 'gtc',
  };
  if (orderType === 'limit') plan.price = requiredDecimal(fields, 'price');
  return plan;
}

/** The trigger strategy order a v3 place-order with a trigger describes. */
export function orderTriggerPlan(
  fields: Fields,
  category: Category,
  trigger: OrderTrigger,
  hedge: boolean,
): PlanRequest {
  const { triggerPrice, callbackRatio } = trigger;
  if (category === 'SPOT' && callbackRatio !== undefined)
    reject('FIELD_UNSERVED', 'trailingPercent', SPOT_TRAILING_WHY);
  if (category === 'SPOT') return spotTriggerPlan(fields, triggerPrice);
  if (!isFutures(category)) reject('FIELD_UNSERVED', 'triggerPrice', MARGIN_WHY);
  const timeInForce = optionalEnum(fields, 'timeInForce', TIMES_IN_FORCE);
  if (timeInForce && timeInForce !== 'gtc') reject('PARAM_ERROR', 'timeInForce');
  const orderType = optionalString(fields, 'orderType');
  if (orderType === undefined) reject('PARAM_EMPTY', 'orderType');
  // A trailing stop places a market order when it fires (the venue's track_plan rule).
  if (callbackRatio !== undefined && orderType !== 'market') reject('PARAM_ERROR', 'orderType');
  const translated: Fields = {
    ...fields,
    triggerPrice,
    triggerOrderType: orderType,
    ...(fields.price !== undefined ? { triggerOrderPrice: fields.price } : {}),
  };
  const by = triggerByOf(fields);
  if (by) translated.triggerBy = by;
  else delete translated.triggerBy;
  const plan = triggerRequest(translated, String(fields.symbol ?? '').toUpperCase(), hedge);
  if (plan.orderType === 'market' && !isZero(optionalDecimal(fields, 'price')))
    reject('PARAM_ERROR', 'price');
  plan.stpMode = optionalEnum(fields, 'stpMode', STP_MODES) ?? 'none';
  if (callbackRatio !== undefined) {
    if (plan.takeProfit || plan.stopLoss)
      reject('FIELD_UNSERVED', plan.takeProfit ? 'takeProfit' : 'stopLoss', TRAILING_PRESET_WHY);
    plan.planType = 'track_plan';
    plan.callbackRatio = callbackRatio;
  }
  return plan;
}

/** Places the trigger strategy order of a v3 place-order; its `{orderId, clientOid}`. */
export async function placeOrderTrigger(
  services: Services,
  order: { uid: string; category: Category; fields: Fields; trigger: OrderTrigger; clientOid?: string },
): Promise<{ orderId: string; clientOid: string } | undefined> {
  const { uid, category } = order;
  const hedge = positionModeOf(services.sequencer.exchange.state, uid, category) === 'hedge_mode';
  const item = orderTriggerPlan(order.fields, category, order.trigger, hedge);
  if (order.clientOid) item.clientOid = order.clientOid;
  const [placed] = await submit<{ orderId: string; clientOid: string }[]>(services, {
    type: 'PlacePlanOrders',
    timeMs: services.clock.now(),
    uid,
    category,
    items: [item],
  });
  return placed;
}
