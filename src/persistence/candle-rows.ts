/**
 * Candle rows: every trade (kind `market`) and every index price (kind `index`) is merged
 * into a one-minute and a one-hour row of table `candles` (schema.ts, migration 20). Longer
 * and odd granularities are built from these at read time (src/market/candles.ts), so a
 * trade costs two row merges whatever is asked later.
 *
 * Numbers are integers scaled by 10^8 (the money scale): an instrument's price and quantity
 * have at most 8 decimals together, so a trade's quote value is exact too. The merge itself
 * (open kept, high max, low min, close replaced, volumes summed) is declared on the table and
 * done by the store in SQL, so a row is never read back to be written.
 */
import type { IndexBar } from '../domain/events.ts';
import type { Value } from './projection.ts';
import type { RowWrite } from './projection.ts';

export const CANDLE_SCALE = 8;
const SCALE = 10n ** BigInt(CANDLE_SCALE);
const RESOLUTIONS: readonly ['1m' | '1h', number][] = [
  ['1m', 60_000],
  ['1h', 3_600_000],
];

/** `taker_buy`: the market rows of trades whose taker bought (market-stats-rows.ts). */
export type CandleKind = 'market' | 'index' | 'mark' | 'taker_buy';

/** A non-negative decimal string as an integer scaled by 10^8, extra decimals cut; null if not a decimal. */
export function scaledOf(text: string): bigint | null {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) return null;
  const fraction = (match[2] ?? '').slice(0, CANDLE_SCALE).padEnd(CANDLE_SCALE, '0');
  return BigInt(match[1] ?? '0') * SCALE + BigInt(fraction);
}

export function candleId(
  kind: CandleKind,
  category: string,
  symbol: string,
  resolution: string,
  bucketMs: number,
): string {
  return `${kind}|${category}|${symbol}|${resolution}|${bucketMs}`;
}

export function candleRows(
  kind: CandleKind,
  category: string,
  symbol: string,
  price: string,
  quantity: string,
  timeMs: number,
): RowWrite[] {
  const scaledPrice = scaledOf(price);
  const base = scaledOf(quantity);
  if (scaledPrice === null || base === null) return [];
  const quote = (scaledPrice * base) / SCALE;
  const values: Record<string, Value> = {
    kind,
    category,
    symbol,
    open: scaledPrice.toString(),
    high: scaledPrice.toString(),
    low: scaledPrice.toString(),
    close: scaledPrice.toString(),
    base_volume: base.toString(),
    quote_volume: quote.toString(),
    trades: kind === 'market' ? 1 : 0,
    updated_ms: timeMs,
  };
  return RESOLUTIONS.map(([resolution, sizeMs]) => {
    const bucketMs = Math.floor(timeMs / sizeMs) * sizeMs;
    return {
      table: 'candles',
      mode: 'upsert',
      row: {
        id: candleId(kind, category, symbol, resolution, bucketMs),
        resolution,
        bucket_ms: bucketMs,
        ...values,
      },
    };
  });
}

/** The rows of one walked minute bar (no volume): its one-minute row and its merge into the hour. */
export function barRows(kind: CandleKind, category: string, symbol: string, bar: IndexBar): RowWrite[] {
  const prices = [bar.open, bar.high, bar.low, bar.close].map(scaledOf);
  const [open, high, low, close] = prices;
  if (open == null || high == null || low == null || close == null) return [];
  const values: Record<string, Value> = {
    kind,
    category,
    symbol,
    open: open.toString(),
    high: high.toString(),
    low: low.toString(),
    close: close.toString(),
    base_volume: '0',
    quote_volume: '0',
    trades: 0,
    updated_ms: bar.startMs,
  };
  return RESOLUTIONS.map(([resolution, sizeMs]) => {
    const bucketMs = Math.floor(bar.startMs / sizeMs) * sizeMs;
    return {
      table: 'candles',
      mode: 'upsert',
      row: {
        id: candleId(kind, category, symbol, resolution, bucketMs),
        resolution,
        bucket_ms: bucketMs,
        ...values,
      },
    };
  });
}
