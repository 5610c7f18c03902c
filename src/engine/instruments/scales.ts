/**
 * Integer steps of an instrument: prices in ticks, quantities in lots, values in money units.
 *
 * Spot and margin: tick = 10^-pricePrecision, lot = 10^-quantityPrecision. Futures: tick =
 * priceMultiplier, lot = quantityMultiplier (both at most pricePrecision / quantityPrecision
 * places). The value of `lots` at `ticks` is exact in money units because an instrument is
 * refused unless pricePrecision + quantityPrecision ≤ MONEY_SCALE.
 */
import { isFutures, isInverse } from '../../domain/category.ts';
import { formatScaled, parseScaled, parseScaledSafe } from '../../domain/decimal.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { MONEY_SCALE } from '../../domain/money.ts';

export interface Scales {
  pricePlaces: number;
  quantityPlaces: number;
  quotePlaces: number;
  /** One tick in units of 10^-pricePlaces. */
  tickUnits: bigint;
  /** One lot in units of 10^-quantityPlaces. */
  lotUnits: bigint;
  /** `tickUnits` and `lotUnits` as Numbers (exact: 0 when they would not be safe integers). */
  tickUnitsNumber: number;
  lotUnitsNumber: number;
  /** Money units per (tick × lot). */
  moneyPerTickLot: bigint;
  /** Money units per tick (a price of one tick, per one base coin). */
  moneyPerTick: bigint;
  /** Money units per lot (base quantity of one lot). */
  moneyPerLot: bigint;
  /** The three above as Numbers (exact: 0 when they would not be safe integers). */
  moneyPerTickLotNumber: number;
  moneyPerTickNumber: number;
  moneyPerLotNumber: number;
  /** `marginValue` of this instrument, made once (the matcher takes it per order). */
  quoteOf: (ticks: number, lots: number) => bigint;
}

const cache = new WeakMap<Instrument, Scales>();

function safeNumber(value: bigint): number {
  return value > 0n && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : 0;
}

/**
 * Text → whole steps of `unitsNumber` units of 10^-places, in Numbers when the text parses as
 * a safe integer (the common case: no bigint made); `undefined` when only bigints can tell.
 * The same answers as the bigint path: the value is exact and divisible, so the quotient is.
 */
function stepsOfSafe(text: string, places: number, unitsNumber: number): number | StepError | undefined {
  if (unitsNumber === 0) return undefined;
  const scaled = parseScaledSafe(text, places);
  if (scaled === undefined) return undefined;
  if (scaled === null) return 'precision';
  // A step of one unit (every spot instrument) divides everything: a float remainder was about
  // a fifth of this function's time (2026-11-26).
  if (unitsNumber === 1) return scaled;
  if (scaled % unitsNumber !== 0) return 'step';
  // A negative zero cannot come: parseScaledSafe gives 0 for "-0", and 0 / units is 0.
  return scaled / unitsNumber;
}

/**
 * The instrument asked last and its scales: an order asks for the same instrument's scales
 * several times (parsing, value, band, fill), and a WeakMap get hashes each time.
 */
let lastInstrument: Instrument | undefined;
let lastScales: Scales | undefined;

export function scalesOf(instrument: Instrument): Scales {
  if (instrument === lastInstrument && lastScales) return lastScales;
  const cached = cache.get(instrument) ?? makeScales(instrument);
  lastInstrument = instrument;
  lastScales = cached;
  return cached;
}

function makeScales(instrument: Instrument): Scales {
  const pricePlaces = Number(instrument.pricePrecision || '0');
  const quantityPlaces = Number(instrument.quantityPrecision || '0');
  const futures = isFutures(instrument.category);
  const tickUnits =
    (futures && instrument.priceMultiplier && parseScaled(instrument.priceMultiplier, pricePlaces)) || 1n;
  const lotUnits =
    (futures &&
      instrument.quantityMultiplier &&
      parseScaled(instrument.quantityMultiplier, quantityPlaces)) ||
    1n;
  const moneyPerTickLot = tickUnits * lotUnits * 10n ** BigInt(MONEY_SCALE - pricePlaces - quantityPlaces);
  const moneyPerTick = tickUnits * 10n ** BigInt(MONEY_SCALE - pricePlaces);
  const moneyPerLot = lotUnits * 10n ** BigInt(MONEY_SCALE - quantityPlaces);
  const scales: Scales = {
    pricePlaces,
    quantityPlaces,
    quotePlaces: Number(instrument.quotePrecision || String(MONEY_SCALE)),
    tickUnits,
    lotUnits,
    tickUnitsNumber: safeNumber(tickUnits),
    lotUnitsNumber: safeNumber(lotUnits),
    moneyPerTickLot,
    moneyPerTick,
    moneyPerLot,
    moneyPerTickLotNumber: safeNumber(moneyPerTickLot),
    moneyPerTickNumber: safeNumber(moneyPerTick),
    moneyPerLotNumber: safeNumber(moneyPerLot),
    quoteOf: (ticks, lots) => marginValue(instrument, ticks, lots),
  };
  cache.set(instrument, scales);
  return scales;
}

export type StepError = 'precision' | 'step' | 'range';

/** Decimal price → ticks; 'precision' for too many decimals, 'step' for an off-step price. */
export function priceToTicks(instrument: Instrument, text: string): number | StepError {
  const scales = scalesOf(instrument);
  const fast = stepsOfSafe(text, scales.pricePlaces, scales.tickUnitsNumber);
  if (fast !== undefined) return fast;
  const scaled = parseScaled(text, scales.pricePlaces);
  if (scaled === null) return 'precision';
  if (scaled % scales.tickUnits !== 0n) return 'step';
  const ticks = scaled / scales.tickUnits;
  return ticks > BigInt(Number.MAX_SAFE_INTEGER) ? 'range' : Number(ticks);
}

/**
 * Printed prices and quantities per instrument record: the same few price levels and sizes
 * are printed for every order view, fill and trade. Bounded: emptied when full.
 */
interface Printed {
  prices: Map<number, string>;
  quantities: Map<number, string>;
}

const printedCache = new WeakMap<Instrument, Printed>();
const MAX_PRINTED = 4_096;

let lastPrintedOf: Instrument | undefined;
let lastPrinted: Printed | undefined;

function printedOf(instrument: Instrument): Printed {
  if (instrument === lastPrintedOf && lastPrinted) return lastPrinted;
  let printed = printedCache.get(instrument);
  if (!printed) {
    printed = { prices: new Map(), quantities: new Map() };
    printedCache.set(instrument, printed);
  }
  lastPrintedOf = instrument;
  lastPrinted = printed;
  return printed;
}

function remember(texts: Map<number, string>, key: number, text: string): string {
  if (texts.size >= MAX_PRINTED) texts.clear();
  texts.set(key, text);
  return text;
}

export function ticksToPrice(instrument: Instrument, ticks: number): string {
  const { prices } = printedOf(instrument);
  const known = prices.get(ticks);
  if (known !== undefined) return known;
  const scales = scalesOf(instrument);
  return remember(prices, ticks, formatScaled(BigInt(ticks) * scales.tickUnits, scales.pricePlaces));
}

export function quantityToLots(instrument: Instrument, text: string): number | StepError {
  const scales = scalesOf(instrument);
  const fast = stepsOfSafe(text, scales.quantityPlaces, scales.lotUnitsNumber);
  if (fast !== undefined) return fast;
  const scaled = parseScaled(text, scales.quantityPlaces);
  if (scaled === null) return 'precision';
  if (scaled % scales.lotUnits !== 0n) return 'step';
  const lots = scaled / scales.lotUnits;
  return lots > BigInt(Number.MAX_SAFE_INTEGER) ? 'range' : Number(lots);
}

export function lotsToQuantity(instrument: Instrument, lots: number): string {
  const { quantities } = printedOf(instrument);
  const known = quantities.get(lots);
  if (known !== undefined) return known;
  const scales = scalesOf(instrument);
  return remember(quantities, lots, formatScaled(BigInt(lots) * scales.lotUnits, scales.quantityPlaces));
}

/**
 * A product of integers as a bigint, multiplied in Numbers when that is exact: a product of
 * safe integers is exact when it is itself a safe integer (a true product of 2^53 or more
 * rounds to 2^53 or more, which is not), so the bigint path runs only for the rest. Spares
 * the two or three bigints the bigint path makes; the answer is the same. `perUnitNumber` is
 * 0 when the unit's value is not a safe integer.
 */
function exactProduct(factor: number, perUnitNumber: number, perUnit: bigint): bigint {
  const product = factor * perUnitNumber;
  if (perUnitNumber > 0 && Number.isSafeInteger(product)) return BigInt(product);
  return BigInt(factor) * perUnit;
}

/** Base quantity of `lots` in money units (for base-coin balances). */
export function lotsToMoney(instrument: Instrument, lots: number): bigint {
  const scales = scalesOf(instrument);
  return exactProduct(lots, scales.moneyPerLotNumber, scales.moneyPerLot);
}

/** Exact quote value of `lots` at `ticks`, money units. */
export function quoteValue(instrument: Instrument, ticks: number, lots: number): bigint {
  const scales = scalesOf(instrument);
  const tickLots = ticks * lots;
  // ticks × lots unsafe: its product with a unit of 1 or more is too (the bigint path).
  if (Number.isSafeInteger(tickLots))
    return exactProduct(tickLots, scales.moneyPerTickLotNumber, scales.moneyPerTickLot);
  return BigInt(ticks) * BigInt(lots) * scales.moneyPerTickLot;
}

/** Decimal price → money units per one base coin (for band and valuation arithmetic). */
export function priceToMoney(text: string): bigint | null {
  return parseScaled(text, MONEY_SCALE);
}

export function ticksToMoney(instrument: Instrument, ticks: number): bigint {
  const scales = scalesOf(instrument);
  return exactProduct(ticks, scales.moneyPerTickNumber, scales.moneyPerTick);
}

/**
 * What `lots` at `ticks` are worth in the margin coin: the quote value for spot and linear
 * contracts; for inverse (coin-margined) contracts, whose lots are USD, USD ÷ price in the
 * base coin (rounded down).
 */
export function marginValue(instrument: Instrument, ticks: number, lots: number): bigint {
  if (!isInverse(instrument.category)) return quoteValue(instrument, ticks, lots);
  return inverseCoinValue(instrument, lots, ticksToMoney(instrument, ticks));
}

/** Coin value of `lots` USD contracts at `priceMoney` (money per coin). */
export function inverseCoinValue(instrument: Instrument, lots: number, priceMoney: bigint): bigint {
  const usd = lotsToMoney(instrument, lots);
  return priceMoney > 0n ? (usd * 10n ** BigInt(MONEY_SCALE)) / priceMoney : 0n;
}
