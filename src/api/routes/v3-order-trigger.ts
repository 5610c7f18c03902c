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
 * `stpMode` and the TP/SL presets. Category SPOT: a spot plan of the unified account (listed
 * with the SPOT strategy orders), without presets. A futures time in force other than gtc,
 * trailing stops (`trailingPercent`, `callbackRatio`, which the venue has on v2 only), MARGIN
 * trigger orders and trigger prices in a batch are refused with their field's name.
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
import { isZero } from './plan-input.ts';
import { triggerRequest } from './strategy-input.ts';

const TRAILING_FIELDS = ['trailingPercent', 'callbackRatio', 'trailingTriggerPrice'];
const TRAILING_WHY = 'trailing stops are v2 plan orders (place-plan-order track_plan); v3 has none';
const MARGIN_WHY = 'margin trigger orders are not served';
const SPOT_PRESET_WHY = 'a spot trigger order carries no TP/SL; put them on the order it places';
/** Why a batch item may not carry a trigger price (exported for place-batch). */
export const BATCH_TRIGGER_WHY = 'a trigger order is placed alone, with place-order or place-strategy-order';

/** The trigger price a v3 order item carries, or undefined (absent, empty or 0). */
export function orderTriggerPrice(fields: Fields): string | undefined {
  for (const name of TRAILING_FIELDS)
    if (optionalString(fields, name) !== undefined) reject('FIELD_UNSERVED', name, TRAILING_WHY);
  const trigger = optionalDecimal(fields, 'triggerPrice') ?? optionalDecimal(fields, 'stopPrice');
  return trigger === undefined || isZero(trigger) ? undefined : trigger;
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

/** The trigger strategy order a v3 place-order with a trigger price describes. */
export function orderTriggerPlan(
  fields: Fields,
  category: Category,
  triggerPrice: string,
  hedge: boolean,
): PlanRequest {
  if (category === 'SPOT') return spotTriggerPlan(fields, triggerPrice);
  if (!isFutures(category)) reject('FIELD_UNSERVED', 'triggerPrice', MARGIN_WHY);
  const timeInForce = optionalEnum(fields, 'timeInForce', TIMES_IN_FORCE);
  if (timeInForce && timeInForce !== 'gtc') reject('PARAM_ERROR', 'timeInForce');
  const orderType = optionalString(fields, 'orderType');
  if (orderType === undefined) reject('PARAM_EMPTY', 'orderType');
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
  return plan;
}
