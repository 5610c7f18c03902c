/**
 * What the public futures endpoints read about mark price, funding, open interest, position
 * tiers and OI limits: the one seam between the market routes and the futures engine
 * (src/engine/futures). Lines marked `// futures:` read the engine; nothing else in
 * src/market or the routes knows where these figures come from.
 *
 * Every price here is a decimal string as served; "" when there is none. Mark prices are
 * cut to the instrument's price precision.
 */
import { formatScaled, rescale } from '../domain/decimal.ts';
import { instrumentKey, type Instrument } from '../domain/instrument.ts';
import { MONEY_SCALE } from '../domain/money.ts';
import { createContext } from '../engine/context.ts';
import { currentFundingRate } from '../engine/futures/funding.ts';
import { markPrice } from '../engine/futures/mark.ts';
import { POSITION_NOTIONAL_LIMIT } from '../engine/futures/place.ts';
import { DEFAULT_TIERS } from '../engine/futures/tiers.ts';
import { lotsToQuantity } from '../engine/instruments/scales.ts';
import type { EngineState } from '../engine/state.ts';
import type { Books } from '../engine/trading/books.ts';
import { tradingContext } from '../engine/trading/trading-context.ts';

const HOUR_MS = 3_600_000;

export interface FuturesView {
  state: EngineState;
  books: Books;
  nowMs: number;
}

export function indexPriceOf(view: FuturesView, instrument: Instrument): string {
  return view.state.indexPrices.get(instrumentKey(instrument.category, instrument.symbol)) ?? '';
}

/** Mark price (money-free decimal string). */
export function markPriceOf(view: FuturesView, instrument: Instrument): string {
  // futures: the engine's mark (index plus the clamped book premium; engine/futures/mark.ts).
  const mark = markPrice(view.state, view.books, instrument);
  if (mark === null) return '';
  const places = Number(instrument.pricePrecision || '0');
  return formatScaled(rescale(mark, MONEY_SCALE, places, 'down'), places);
}

/** The funding rate that would settle next, a ratio ("0.0001" = 0.01 %). */
export function fundingRateOf(view: FuturesView, instrument: Instrument): string {
  if (fundingIntervalHours(instrument) === '') return '0';
  // futures: the rate that would settle now (engine/futures/funding.ts); a read-only context.
  const context = createContext(view.state, view.nowMs, []);
  const rate = currentFundingRate(tradingContext(context, view.books), instrument);
  return formatScaled(rate, MONEY_SCALE);
}

/** Funding interval in hours ("" for a contract without funding, e.g. a delivery contract). */
export function fundingIntervalHours(instrument: Instrument): string {
  if (instrument.symbolType !== 'perpetual') return '';
  const hours = Number(instrument.fundInterval || '0');
  return Number.isInteger(hours) && hours > 0 ? String(hours) : '';
}

/** Next funding settlement, Unix ms; 0 for a contract without funding. */
export function nextFundingTimeOf(view: FuturesView, instrument: Instrument): number {
  const hours = Number(fundingIntervalHours(instrument) || '0');
  if (hours === 0) return 0;
  const intervalMs = hours * HOUR_MS;
  // futures: the engine's next settlement when it has scheduled one.
  const scheduled = view.state.funding.get(instrumentKey(instrument.category, instrument.symbol));
  if (scheduled && scheduled.nextFundingTimeMs > view.nowMs) return scheduled.nextFundingTimeMs;
  return (Math.floor(view.nowMs / intervalMs) + 1) * intervalMs;
}

/** Funding rate caps (±0.003, as on the venue's live BTC/ETH contracts). */
export function fundingRateBounds(instrument: Instrument): { min: string; max: string } {
  void instrument;
  // futures: point at the engine's per-instrument cap when it has one.
  return { min: '-0.003', max: '0.003' };
}

/** Open interest in base coin (the size of all long positions). */
export function openInterestOf(view: FuturesView, instrument: Instrument): string {
  let lots = 0;
  // futures: every open long position of the instrument (each long has a short opposite).
  for (const position of view.state.positions.values()) {
    if (
      position.holdSide === 'long' &&
      position.category === instrument.category &&
      position.symbol === instrument.symbol
    ) {
      lots += position.sizeLots;
    }
  }
  return lotsToQuantity(instrument, lots);
}

export interface PositionTier {
  level: number;
  startValue: string;
  endValue: string;
  leverage: string;
  maintenanceMarginRate: string;
}

/** Position tiers of a contract, lowest first; leverage capped at the instrument's maximum. */
export function positionTiersOf(instrument: Instrument): PositionTier[] {
  // futures: the engine's tier table (engine/futures/tiers.ts).
  const maxLeverage = Number(instrument.maxLeverage || '0') || Infinity;
  let start = 0;
  return DEFAULT_TIERS.map((entry) => {
    const tier: PositionTier = {
      level: entry.level,
      startValue: String(start),
      endValue: String(entry.maxValue),
      leverage: String(Math.min(entry.maxLeverage, maxLeverage)),
      maintenanceMarginRate: entry.mmr,
    };
    start = entry.maxValue;
    return tier;
  });
}

/** Open-interest limits: a user's position notional, and main + sub-accounts together. */
export function oiLimitOf(instrument: Instrument): { notionalValue: string; totalNotionalValue: string } {
  void instrument;
  // futures: the per-account position notional the engine enforces (engine/futures/place.ts),
  // and twice that for a main account with its sub-accounts, as v2 oi-limit reports it.
  return {
    notionalValue: String(POSITION_NOTIONAL_LIMIT),
    totalNotionalValue: String(POSITION_NOTIONAL_LIMIT * 2),
  };
}

/** An open position as the market statistics see it: who holds which side, opened how much, since when. */
export interface OpenHolding {
  uid: string;
  holdSide: string;
  /** Size opened over the position's life, a decimal string (as position history reports it). */
  size: string;
  openedMs: number;
}

export function openHoldingsOf(view: FuturesView, instrument: Instrument): OpenHolding[] {
  const holdings: OpenHolding[] = [];
  // futures: every open position of the instrument (engine state).
  for (const position of view.state.positions.values()) {
    if (position.category !== instrument.category || position.symbol !== instrument.symbol) continue;
    holdings.push({
      uid: position.uid,
      holdSide: position.holdSide,
      size: lotsToQuantity(instrument, position.openedLotsTotal),
      openedMs: position.createdTimeMs,
    });
  }
  return holdings;
}
