/**
 * Spot plan orders (v2 spot place-plan-order; docs/triggers.md, "Spot plans"): a trigger on
 * the last trade (`fill_price`) or the spot mark price (`mark_price`: the symbol's index plus
 * its book's clamped premium, engine/futures/mark.ts) that places an ordinary spot order
 * through the shared placement path when touched.
 *
 * Invariants: a spot plan holds nothing while it waits (no balance is frozen); the order it
 * places is checked, held and matched when it fires, and a refusal then (no balance, a price
 * band, the symbol offline) ends the plan `fail_execute`. Prices are on the symbol's grid and
 * sizes within its limits at placement, as for an order.
 *
 * Sizes: `amount` plans are sized in base coin (lots); `total` plans in quote coin. When a
 * plan fires, a limit order's base size is the quote amount ÷ its limit price and a market
 * sell's the quote amount ÷ the price that fired it (both rounded down to the lot); a market
 * buy of an `amount` plan spends the base size × the price that fired it (rounded down to the
 * quote precision), since spot market buys are sized in quote.
 *
 * The futures-only fields of a Plan are fixed for spot (one-way, opening, crossed, the quote
 * coin as margin coin) and never read.
 */
import type { ModifyPlanOrder, OrderRequest, PlanRequest } from '../../domain/commands.ts';
import { divide, formatScaled, parseScaled } from '../../domain/decimal.ts';
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import { MONEY_SCALE } from '../../domain/money.ts';
import type { Plan, SpotPlanTerms } from '../../domain/plan.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import { valueAt } from '../futures/risk.ts';
import { lotsToMoney, lotsToQuantity, scalesOf } from '../instruments/scales.ts';
import { checkTradable } from '../trading/validate.ts';
import type { TradingContext } from '../trading/trading-context.ts';
import { planLimitFailure } from './limits.ts';
import { currentPrice, referencePriceFor } from './prices.ts';
import { gridPrice, planLots, type NewPlan } from './validate.ts';
import { priceText, spotSizeText } from './view.ts';

const ONE = 10n ** BigInt(MONEY_SCALE);

/** What placement and modification check: the plan's prices, size and terms in engine units. */
interface SpotFields {
  instrument: Instrument;
  triggerPrice: bigint;
  executePrice: bigint;
  sizeLots: number;
  spot: SpotPlanTerms;
}

function quotePlaces(instrument: Instrument): number {
  return Math.min(scalesOf(instrument).quotePlaces, MONEY_SCALE);
}

/** A quote amount as sent → money units, at the symbol's quote precision. */
function quoteAmountOf(instrument: Instrument, text: string | undefined): Outcome<bigint> {
  if (text === undefined) return fail('PARAM_EMPTY', 'size');
  const places = quotePlaces(instrument);
  const scaled = parseScaled(text, places);
  if (scaled === null)
    return fail('QUANTITY_PRECISION_INVALID', `size checkBDScale error value=${text} checkScale=${places}`);
  if (scaled <= 0n) return fail('PARAM_ERROR', 'size');
  return ok(scaled * 10n ** BigInt(MONEY_SCALE - places));
}

/** Base lots a quote amount buys at `price` (money units per base coin), rounded down. */
function lotsFor(instrument: Instrument, quote: bigint, price: bigint): number {
  if (price <= 0n) return 0;
  return Number(divide(divide(quote * ONE, price, 'down'), scalesOf(instrument).moneyPerLot, 'down'));
}

/** What `lots` cost at `price`, rounded down to the quote precision (money units). */
function quoteFor(instrument: Instrument, lots: number, price: bigint): bigint {
  const unit = 10n ** BigInt(MONEY_SCALE - quotePlaces(instrument));
  return divide(divide(lotsToMoney(instrument, lots) * price, ONE, 'down'), unit, 'down') * unit;
}

function minimumAmount(instrument: Instrument): bigint {
  return (instrument.minOrderAmount && parseScaled(instrument.minOrderAmount, MONEY_SCALE)) || 0n;
}

/** Size of a spot plan at the price it is expected to execute at (its limit, else its trigger). */
function sizeOf(
  instrument: Instrument,
  request: PlanRequest,
  priceMoney: bigint,
): Outcome<{ sizeLots: number; quoteAmount: bigint }> {
  const market = request.orderType === 'market';
  const belowMinimum = () =>
    fail('AMOUNT_BELOW_MINIMUM', instrument.symbol, instrument.minOrderAmount, instrument.quoteCoin);
  if (request.sizeUnit === 'total') {
    const quote = quoteAmountOf(instrument, request.size);
    if (!quote.ok) return quote;
    if (quote.value < minimumAmount(instrument)) return belowMinimum();
    if (!market && lotsFor(instrument, quote.value, priceMoney) === 0)
      return fail('QUANTITY_BELOW_MINIMUM', instrument.symbol, instrument.minOrderQty);
    return ok({ sizeLots: 0, quoteAmount: quote.value });
  }
  const lots = planLots(instrument, request.size, market);
  if (!lots.ok) return lots;
  if (valueAt(instrument, lots.value, priceMoney) < minimumAmount(instrument)) return belowMinimum();
  return ok({ sizeLots: lots.value, quoteAmount: 0n });
}

function spotFields(trading: TradingContext, uid: string, request: PlanRequest): Outcome<SpotFields> {
  const { state, nowMs } = trading.context;
  const instrument = state.instruments.get(instrumentKey('SPOT', request.symbol));
  if (!instrument) return fail('SYMBOL_NOT_FOUND', request.symbol);
  const tradable = checkTradable(instrument, nowMs);
  if (!tradable.ok) return tradable;
  if (!state.accounts.has(uid)) return fail('ACCOUNT_NOT_FOUND', uid);
  if (request.planType !== 'normal_plan') return fail('PARAM_ERROR', 'planType');
  const trigger = gridPrice(instrument, request.triggerPrice, 'triggerPrice');
  if (!trigger.ok) return trigger;
  const limit = request.orderType === 'limit';
  if (limit && request.price === undefined) return fail('PARAM_EMPTY', 'executePrice');
  const execute = limit ? gridPrice(instrument, request.price ?? '', 'executePrice') : ok(0n);
  if (!execute.ok) return execute;
  const size = sizeOf(instrument, request, execute.value || trigger.value);
  if (!size.ok) return size;
  return ok({
    instrument,
    triggerPrice: trigger.value,
    executePrice: execute.value,
    sizeLots: size.value.sizeLots,
    spot: {
      sizeUnit: request.sizeUnit ?? 'amount',
      quoteAmount: size.value.quoteAmount,
      timeInForce: request.timeInForce ?? 'gtc',
    },
  });
}

/** Where a trigger waits: for a rise when at or above the price now, else for a fall. */
function directionFor(
  trading: TradingContext,
  fields: SpotFields,
  triggerType: Plan['triggerType'],
): Outcome<'up' | 'down'> {
  const { state } = trading.context;
  const reference = referencePriceFor(state, trading.books, fields.instrument, triggerType);
  if (reference === null) return fail('PRICE_UNAVAILABLE');
  return ok(fields.triggerPrice >= reference ? 'up' : 'down');
}

export function validateSpotPlan(
  trading: TradingContext,
  uid: string,
  request: PlanRequest,
): Outcome<NewPlan> {
  const fields = spotFields(trading, uid, request);
  if (!fields.ok) return fields;
  const { instrument } = fields.value;
  const direction = directionFor(trading, fields.value, request.triggerType);
  if (!direction.ok) return direction;
  const limitFailure = planLimitFailure(trading.context.state.plans, uid, instrument, 'normal_plan');
  if (limitFailure) return { ok: false, ...limitFailure };
  return ok({
    clientOid: request.clientOid ?? '',
    uid,
    category: 'SPOT',
    symbol: instrument.symbol,
    planType: 'normal_plan',
    triggerType: request.triggerType,
    triggerPrice: fields.value.triggerPrice,
    direction: direction.value,
    orderType: request.orderType,
    executePrice: fields.value.executePrice,
    sizeLots: fields.value.sizeLots,
    side: request.side,
    // Futures fields, fixed for spot (see the header).
    holdSide: request.side === 'buy' ? 'long' : 'short',
    tradeSide: 'open',
    reduceOnly: false,
    posMode: 'one_way_mode',
    marginMode: 'crossed',
    marginCoin: instrument.quoteCoin,
    stpMode: request.stpMode,
    spot: fields.value.spot,
  });
}

/** The spot order a firing plan places, sized at the price that fired it. */
export function spotOrderRequest(trading: TradingContext, plan: Plan): Outcome<OrderRequest> {
  const { state } = trading.context;
  const instrument = state.instruments.get(instrumentKey(plan.category, plan.symbol));
  const terms = plan.spot;
  if (!instrument || !terms) return fail('SYMBOL_NOT_FOUND', plan.symbol);
  const firePrice = currentPrice(state, trading.books, instrument, plan.triggerType) ?? plan.triggerPrice;
  const limit = plan.orderType === 'limit';
  const request: OrderRequest = {
    symbol: plan.symbol,
    side: plan.side,
    orderType: plan.orderType,
    timeInForce: limit ? terms.timeInForce : 'ioc',
    stpMode: plan.stpMode,
    quantity: '',
  };
  if (limit) request.price = priceText(instrument, plan.executePrice);
  const total = terms.sizeUnit === 'total';
  if (!limit && plan.side === 'buy') {
    const quote = total ? terms.quoteAmount : quoteFor(instrument, plan.sizeLots, firePrice);
    request.quantity = formatScaled(quote, MONEY_SCALE);
  } else {
    const price = limit ? plan.executePrice : firePrice;
    const lots = total ? lotsFor(instrument, terms.quoteAmount, price) : plan.sizeLots;
    request.quantity = lotsToQuantity(instrument, lots);
  }
  return ok(request);
}

type SpotChanges = Pick<Plan, 'triggerPrice' | 'triggerType' | 'direction' | 'orderType'> &
  Pick<Plan, 'executePrice' | 'sizeLots' | 'spot'>;

/**
 * v2 spot modify-plan-order: a new trigger price, order type, execute price and size, checked
 * as at placement. A changed trigger (or source) waits by the price now; otherwise the plan
 * keeps its direction.
 */
export function spotPlanChanges(
  trading: TradingContext,
  plan: Plan,
  command: ModifyPlanOrder,
): Outcome<SpotChanges> {
  const instrument = trading.context.state.instruments.get(instrumentKey(plan.category, plan.symbol));
  if (!instrument || !plan.spot) return fail('SYMBOL_NOT_FOUND', plan.symbol);
  const orderType = command.orderType ?? plan.orderType;
  const keptPrice = plan.executePrice > 0n ? priceText(instrument, plan.executePrice) : undefined;
  const price = orderType === 'limit' ? (command.price ?? keptPrice) : undefined;
  const triggerType = command.triggerType ?? plan.triggerType;
  const request: PlanRequest = {
    planType: 'normal_plan',
    symbol: plan.symbol,
    triggerType,
    triggerPrice: command.triggerPrice ?? priceText(instrument, plan.triggerPrice),
    orderType,
    ...(price !== undefined ? { price } : {}),
    size: command.size ?? spotSizeText(instrument, plan),
    side: plan.side,
    stpMode: plan.stpMode,
    sizeUnit: plan.spot.sizeUnit,
    timeInForce: plan.spot.timeInForce,
  };
  const fields = spotFields(trading, plan.uid, request);
  if (!fields.ok) return fields;
  const moved = fields.value.triggerPrice !== plan.triggerPrice || triggerType !== plan.triggerType;
  const direction = moved ? directionFor(trading, fields.value, triggerType) : ok(plan.direction);
  if (!direction.ok) return direction;
  return ok({
    triggerPrice: fields.value.triggerPrice,
    triggerType,
    direction: direction.value,
    orderType,
    executePrice: fields.value.executePrice,
    sizeLots: fields.value.sizeLots,
    spot: fields.value.spot,
  });
}
