/**
 * Order validation against the instrument (the venue's order rules):
 * status, price precision and step, quantity precision and step, min/max quantity, minimum
 * amount and the price band around the reference price. Returns the order in integer units,
 * or the failure with the parameters the venue's messages quote ([symbol, value, coin]).
 */
import { isFutures, type Category } from '../../domain/category.ts';
import type { OrderRequest } from '../../domain/commands.ts';
import { divide, parseScaled } from '../../domain/decimal.ts';
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import { MONEY_SCALE } from '../../domain/money.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import type { EngineState } from '../state.ts';
import { priceToTicks, quantityToLots, quoteValue, scalesOf, ticksToMoney } from '../instruments/scales.ts';
import { referencePrice } from './reference-price.ts';

export interface ValidOrder {
  instrument: Instrument;
  key: string;
  priceTicks: number;
  quantityLots: number;
  quoteAmount: bigint;
  /** Market orders: the band price they may not trade through (ticks), if a reference exists. */
  protectionTicks?: number;
  /**
   * Limit orders: the quote value of quantityLots at priceTicks (validation computes it for
   * the minimum amount; the hold of a buy is the same figure). Absent: compute it.
   */
  notional?: bigint;
}

const RATIO_ONE = 10n ** BigInt(MONEY_SCALE);

function ratioOf(text: string): bigint {
  return (text && parseScaled(text, MONEY_SCALE)) || 0n;
}

/** An instrument's limits in integer units, parsed once per instrument record (records are
 * replaced, never mutated, when the operator edits an instrument). */
interface Limits {
  minLots: number;
  maxLimitLots: number;
  maxMarketLots: number;
  minAmount: bigint;
  buyRatio: bigint;
  sellRatio: bigint;
  /** The band at the last reference price seen. */
  band?: Band;
}

interface Band {
  reference: bigint;
  highest: bigint | null;
  lowest: bigint | null;
  /**
   * The band in ticks for limit prices: a price is above it when its ticks exceed
   * `highestTicks`, below it when they are under `lowestTicks` (±Infinity when there is no
   * such bound, or it lies beyond every safe tick count). Exact: floor(highest ÷ tick) and
   * ceil(lowest ÷ tick), taken in bigints once per reference price, so each order compares
   * two Numbers instead of making its price in money.
   */
  highestTicks: number;
  lowestTicks: number;
}

/** A whole tick count as a Number, clamped to ±Infinity beyond the safe range (ticks are safe). */
function clampedTicks(ticks: bigint): number {
  if (ticks > BigInt(Number.MAX_SAFE_INTEGER)) return Number.POSITIVE_INFINITY;
  if (ticks < BigInt(Number.MIN_SAFE_INTEGER)) return Number.NEGATIVE_INFINITY;
  return Number(ticks);
}

/** floor(money ÷ perTick), perTick > 0: the most ticks priced at or under `money`. */
function ticksAtMost(money: bigint, perTick: bigint): number {
  const quotient = money / perTick;
  return clampedTicks(money < 0n && quotient * perTick !== money ? quotient - 1n : quotient);
}

/** ceil(money ÷ perTick), perTick > 0: the fewest ticks priced at or over `money`. */
function ticksAtLeast(money: bigint, perTick: bigint): number {
  const quotient = money / perTick;
  return clampedTicks(money > 0n && quotient * perTick !== money ? quotient + 1n : quotient);
}

const limitsCache = new WeakMap<Instrument, Limits>();

function lotsOrDefault(instrument: Instrument, text: string, fallback: number): number {
  const lots = text ? quantityToLots(instrument, text) : fallback;
  return typeof lots === 'number' ? lots : fallback;
}

/** The instrument asked last and its limits (spares a WeakMap get per order). */
let lastInstrument: Instrument | undefined;
let lastLimits: Limits | undefined;

function limitsOf(instrument: Instrument): Limits {
  if (instrument === lastInstrument && lastLimits) return lastLimits;
  let limits = limitsCache.get(instrument);
  if (!limits) {
    limits = {
      minLots: lotsOrDefault(instrument, instrument.minOrderQty, 0),
      maxLimitLots: lotsOrDefault(instrument, instrument.maxOrderQty, Number.MAX_SAFE_INTEGER),
      maxMarketLots: lotsOrDefault(instrument, instrument.maxMarketOrderQty, Number.MAX_SAFE_INTEGER),
      minAmount: ratioOf(instrument.minOrderAmount),
      buyRatio: ratioOf(instrument.buyLimitPriceRatio),
      sellRatio: ratioOf(instrument.sellLimitPriceRatio),
    };
    limitsCache.set(instrument, limits);
  }
  lastInstrument = instrument;
  lastLimits = limits;
  return limits;
}

/** The price band around `reference`, remembered for the last reference seen (it moves rarely). */
function bandOf(limits: Limits, reference: bigint, moneyPerTick: bigint): Band {
  const known = limits.band;
  if (known && known.reference === reference) return known;
  const { buyRatio, sellRatio } = limits;
  const highest = buyRatio > 0n ? divide(reference * (RATIO_ONE + buyRatio), RATIO_ONE, 'down') : null;
  const lowest = sellRatio > 0n ? divide(reference * (RATIO_ONE - sellRatio), RATIO_ONE, 'up') : null;
  const band: Band = {
    reference,
    highest,
    lowest,
    highestTicks: highest === null ? Number.POSITIVE_INFINITY : ticksAtMost(highest, moneyPerTick),
    lowestTicks: lowest === null ? Number.NEGATIVE_INFINITY : ticksAtLeast(lowest, moneyPerTick),
  };
  limits.band = band;
  return band;
}

function percentText(ratio: string): string {
  return String(Number(ratio) * 100);
}

/** The price tick as the venue's messages name it. Formatted only for a message: for every order it cost ~2% of the loop. */
function tickText(instrument: Instrument): string {
  const places = scalesOf(instrument).pricePlaces;
  return instrument.priceMultiplier || (10 ** -places).toFixed(places);
}

function timeReached(text: string, nowMs: number): boolean {
  return text !== '' && text !== '-1' && text !== '0' && Number(text) <= nowMs;
}

export function checkTradable(instrument: Instrument, nowMs: number): Outcome<true> {
  const { status, symbol } = instrument;
  if (status === 'listed') return fail('SYMBOL_NOT_OPEN', symbol);
  if (status === 'offline' || timeReached(instrument.offTime, nowMs)) return fail('SYMBOL_OFFLINE', symbol);
  if (status === 'restricted') return fail('SYMBOL_RESTRICTED', symbol);
  if (status === 'limit_open' || timeReached(instrument.limitOpenTime, nowMs))
    return fail('SYMBOL_OFFLINE', symbol);
  return ok(true);
}

export function validateOrder(
  state: EngineState,
  category: Category,
  request: OrderRequest,
  nowMs: number,
): Outcome<ValidOrder> {
  const key = instrumentKey(category, request.symbol);
  const instrument = state.instruments.get(key);
  if (!instrument) return fail('SYMBOL_NOT_FOUND', request.symbol);
  const tradable = checkTradable(instrument, nowMs);
  if (!tradable.ok) return tradable;
  const { symbol } = instrument;
  const scales = scalesOf(instrument);
  const limits = limitsOf(instrument);
  const reference = referencePrice(state, instrument);

  let priceTicks = 0;
  if (request.orderType === 'limit') {
    if (request.price === undefined) return fail('PARAM_EMPTY', 'price');
    const ticks = priceToTicks(instrument, request.price);
    if (ticks === 'precision')
      return fail('PRICE_PRECISION_INVALID', 'price scale error', tickText(instrument));
    if (ticks === 'step') return fail('PRICE_STEP_INVALID', 'price', tickText(instrument));
    if (ticks === 'range' || ticks <= 0) return fail('PARAM_ERROR', 'price');
    priceTicks = ticks;
  }

  // Spot and margin market buys are sized in quote; futures orders always in base.
  const marketBuy = request.orderType === 'market' && request.side === 'buy' && !isFutures(category);
  let quantityLots = 0;
  let quoteAmount = 0n;
  if (marketBuy) {
    const amount = parseScaled(request.quantity, Math.min(scales.quotePlaces, MONEY_SCALE));
    if (amount === null) {
      return fail(
        'QUANTITY_PRECISION_INVALID',
        `size checkBDScale error value=${request.quantity} checkScale=${scales.quotePlaces}`,
      );
    }
    if (amount <= 0n) return fail('PARAM_ERROR', 'size');
    quoteAmount = amount * 10n ** BigInt(MONEY_SCALE - Math.min(scales.quotePlaces, MONEY_SCALE));
  } else {
    const lots = quantityToLots(instrument, request.quantity);
    if (lots === 'precision') {
      return fail(
        'QUANTITY_PRECISION_INVALID',
        `size checkBDScale error value=${request.quantity} checkScale=${scales.quantityPlaces}`,
      );
    }
    if (lots === 'step') return fail('QUANTITY_STEP_INVALID', symbol, instrument.quantityMultiplier);
    if (lots === 'range' || lots <= 0) return fail('PARAM_ERROR', 'size');
    quantityLots = lots;
    if (lots < limits.minLots) return fail('QUANTITY_BELOW_MINIMUM', symbol, instrument.minOrderQty);
    const market = request.orderType === 'market';
    if (lots > (market ? limits.maxMarketLots : limits.maxLimitLots)) {
      return fail(
        'QUANTITY_ABOVE_MAXIMUM',
        symbol,
        market ? instrument.maxMarketOrderQty : instrument.maxOrderQty,
      );
    }
  }

  const notional =
    request.orderType === 'limit'
      ? quoteValue(instrument, priceTicks, quantityLots)
      : marketBuy
        ? quoteAmount
        : reference === null
          ? null
          : divide(
              reference * BigInt(quantityLots) * scales.lotUnits,
              10n ** BigInt(scales.quantityPlaces),
              'down',
            );
  if (notional !== null && notional < limits.minAmount) {
    return fail('AMOUNT_BELOW_MINIMUM', symbol, instrument.minOrderAmount, instrument.quoteCoin);
  }

  const valid: ValidOrder = { instrument, key, priceTicks, quantityLots, quoteAmount, notional: undefined };
  if (request.orderType === 'limit') valid.notional = notional as bigint;
  if (reference !== null) {
    const band = bandOf(limits, reference, scales.moneyPerTick);
    const { highest, lowest } = band;
    if (request.orderType === 'limit') {
      if (request.side === 'buy' && priceTicks > band.highestTicks) {
        return fail('PRICE_ABOVE_LIMIT', symbol, percentText(instrument.buyLimitPriceRatio));
      }
      if (request.side === 'sell' && priceTicks < band.lowestTicks) {
        return fail('PRICE_BELOW_LIMIT', symbol, percentText(instrument.sellLimitPriceRatio));
      }
    } else {
      const oneTick = ticksToMoney(instrument, 1);
      if (request.side === 'buy' && highest !== null) valid.protectionTicks = Number(highest / oneTick);
      if (request.side === 'sell' && lowest !== null)
        valid.protectionTicks = Number(divide(lowest, oneTick, 'up'));
    }
  }
  return ok(valid);
}
