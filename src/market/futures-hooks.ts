/**
 * What the public futures endpoints read about mark price, funding, open interest, position
 * tiers and OI limits. Each function here is a seam for the futures engine (src/engine/futures):
 * until it is wired in, the mark price is the index price, the funding rate is "0" with the
 * next settlement on the instrument's fundInterval grid (from 00:00 UTC), open interest is
 * "0", and tiers / OI limits come from fixed tables. Lines marked `// futures:` are the ones
 * to point at the engine's state; nothing else in src/market or the routes needs to change.
 *
 * Every price here is a decimal string as served; "" when there is none.
 */
import { instrumentKey, type Instrument } from '../domain/instrument.ts';
import type { EngineState } from '../engine/state.ts';
import type { Books } from '../engine/trading/books.ts';

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
  // futures: point at engine/futures/mark.ts markPrice(state, books, instrument) once it lands.
  return indexPriceOf(view, instrument);
}

/** The funding rate that would settle next, a ratio ("0.0001" = 0.01 %). */
export function fundingRateOf(view: FuturesView, instrument: Instrument): string {
  void view;
  void instrument;
  // futures: point at the engine's current rate (state.funding / currentFundingRate).
  return '0';
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
  // futures: point at state.funding.get(key)?.nextFundingTimeMs once the engine keeps it.
  return (Math.floor(view.nowMs / intervalMs) + 1) * intervalMs;
}

/** Funding rate caps (venue-mechanics §1.3: ±0.003 on the live BTC/ETH rows). */
export function fundingRateBounds(instrument: Instrument): { min: string; max: string } {
  void instrument;
  // futures: point at the engine's per-instrument cap when it has one.
  return { min: '-0.003', max: '0.003' };
}

/** Open interest in base coin (the size of all long positions). */
export function openInterestOf(view: FuturesView, instrument: Instrument): string {
  void view;
  void instrument;
  // futures: sum the long positions of state.positions for this instrument.
  return '0';
}

export interface PositionTier {
  level: number;
  startValue: string;
  endValue: string;
  leverage: string;
  maintenanceMarginRate: string;
}

/** The venue's live BTCUSDT table (venue-mechanics §2): value bounds in the margin coin. */
const DEFAULT_TIERS: readonly [number, number, string][] = [
  [200_000, 150, '0.004'],
  [1_000_000, 100, '0.005'],
  [5_000_000, 75, '0.007'],
  [15_000_000, 50, '0.01'],
  [50_000_000, 25, '0.02'],
  [100_000_000, 20, '0.03'],
  [150_000_000, 10, '0.06'],
  [300_000_000, 5, '0.12'],
  [500_000_000, 4, '0.15'],
  [700_000_000, 3, '0.2'],
  [900_000_000, 2, '0.3'],
  [1_200_000_000, 1, '0.6'],
];

/** Position tiers of a contract, lowest first; leverage capped at the instrument's maximum. */
export function positionTiersOf(instrument: Instrument): PositionTier[] {
  // futures: point at the engine's tier table (engine/futures/tiers.ts) once it lands.
  const maxLeverage = Number(instrument.maxLeverage || '0') || Infinity;
  let start = 0;
  return DEFAULT_TIERS.map(([end, leverage, rate], index) => {
    const tier: PositionTier = {
      level: index + 1,
      startValue: String(start),
      endValue: String(end),
      leverage: String(Math.min(leverage, maxLeverage)),
      maintenanceMarginRate: rate,
    };
    start = end;
    return tier;
  });
}

/** Open-interest limits: a user's position notional, and main + sub-accounts together. */
export function oiLimitOf(instrument: Instrument): { notionalValue: string; totalNotionalValue: string } {
  // futures: point at the engine's per-user position limit once it enforces one; until then
  // the ceiling of the top position tier, and twice that for the account family.
  const top = positionTiersOf(instrument).at(-1)?.endValue ?? '0';
  return { notionalValue: top, totalNotionalValue: String(Number(top) * 2) };
}
