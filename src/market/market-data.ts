/**
 * Market data as the public endpoints serve it, computed from the engine's books, last
 * trades and index prices (memory, always current) and the stored trades and candles.
 *
 * Last price: the last trade; before any trade, the index price (a fresh sandbox has no
 * trades, and clients divide by it), else "". A side of the book with no order gives ""
 * for its best price and size. Ratios (24-hour change) have five decimals, cut toward zero.
 */
import { divide, formatScaled, parseScaled } from '../domain/decimal.ts';
import { instrumentKey, type Instrument } from '../domain/instrument.ts';
import { lotsToQuantity, ticksToPrice } from '../engine/instruments/scales.ts';
import type { Exchange } from '../engine/exchange.ts';
import type { Store } from '../ports/store.ts';
import { dayStats, type Series } from './candles.ts';

export const CANDLE_DECIMALS = 8;
const RATIO_PLACES = 5;

export type Level = [price: string, size: string];

export interface Depth {
  asks: Level[];
  bids: Level[];
}

/** Scaled (10^8) integer → decimal string; "" for none. */
export function scaledText(value: bigint | null | undefined): string {
  return value === null || value === undefined ? '' : formatScaled(value, CANDLE_DECIMALS);
}

/** (last − open) ÷ open with five decimals, toward zero; "0" when there is no open. */
export function changeRatio(last: bigint | null, open: bigint | null): string {
  if (last === null || open === null || open === 0n) return '0';
  return formatScaled(divide((last - open) * 10n ** BigInt(RATIO_PLACES), open, 'down'), RATIO_PLACES);
}

export function lastPriceText(exchange: Exchange, instrument: Instrument): string {
  const key = instrumentKey(instrument.category, instrument.symbol);
  const ticks = exchange.state.lastTradeTicks.get(key);
  if (ticks !== undefined) return ticksToPrice(instrument, ticks);
  return exchange.state.indexPrices.get(key) ?? '';
}

/**
 * Book levels, best first. `mergeTicks` > 1 groups prices into steps of that many ticks
 * (bids down, asks up), as the venue's merged depth does.
 */
export function depthOf(exchange: Exchange, instrument: Instrument, limit: number, mergeTicks = 1): Depth {
  const book = exchange.books.peek(instrumentKey(instrument.category, instrument.symbol));
  const side = (which: 'buy' | 'sell'): Level[] => {
    if (!book) return [];
    const raw = book.depth(which, mergeTicks === 1 ? limit : Math.min(limit * mergeTicks, 5000));
    const merged: { ticks: number; lots: number }[] = [];
    for (const level of raw) {
      const ticks =
        mergeTicks === 1
          ? level.priceTicks
          : which === 'buy'
            ? Math.floor(level.priceTicks / mergeTicks) * mergeTicks
            : Math.ceil(level.priceTicks / mergeTicks) * mergeTicks;
      const last = merged.at(-1);
      if (last && last.ticks === ticks) last.lots += level.lots;
      else if (merged.length < limit) merged.push({ ticks, lots: level.lots });
      else break;
    }
    return merged.map((level) => [
      ticksToPrice(instrument, level.ticks),
      lotsToQuantity(instrument, level.lots),
    ]);
  };
  return { asks: side('sell'), bids: side('buy') };
}

export interface TickerData {
  instrument: Instrument;
  last: string;
  bidPrice: string;
  bidSize: string;
  askPrice: string;
  askSize: string;
  open24h: string;
  high24h: string;
  low24h: string;
  openUtc: string;
  change24h: string;
  changeUtc24h: string;
  baseVolume: string;
  quoteVolume: string;
  timeMs: number;
}

export async function tickerOf(
  exchange: Exchange,
  store: Store,
  instrument: Instrument,
  nowMs: number,
): Promise<TickerData> {
  const series: Series = { kind: 'market', category: instrument.category, symbol: instrument.symbol };
  const stats = await dayStats(store, series, nowMs);
  const last = lastPriceText(exchange, instrument);
  const lastScaled = last === '' ? null : parseScaled(last, CANDLE_DECIMALS);
  const top = depthOf(exchange, instrument, 1);
  const fallback = (value: bigint | null) => scaledText(value ?? lastScaled);
  return {
    instrument,
    last,
    bidPrice: top.bids[0]?.[0] ?? '',
    bidSize: top.bids[0]?.[1] ?? '',
    askPrice: top.asks[0]?.[0] ?? '',
    askSize: top.asks[0]?.[1] ?? '',
    open24h: fallback(stats.open),
    high24h: fallback(stats.high),
    low24h: fallback(stats.low),
    openUtc: fallback(stats.openUtc),
    change24h: changeRatio(lastScaled, stats.open ?? lastScaled),
    changeUtc24h: changeRatio(lastScaled, stats.openUtc ?? lastScaled),
    baseVolume: scaledText(stats.baseVolume),
    quoteVolume: scaledText(stats.quoteVolume),
    timeMs: nowMs,
  };
}
