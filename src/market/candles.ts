/**
 * Candles and 24-hour statistics, built from the stored one-minute and one-hour rows
 * (persistence/candle-rows.ts). Buckets follow granularity.ts.
 *
 * A bucket with no trade after the first trade is a flat candle at the previous close with
 * zero volume, as the venue's continuous klines are; nothing is returned before the first
 * trade (or first index price, for index candles). With startTime the first `limit` buckets
 * from it are returned, otherwise the last `limit` up to endTime (default now). Values are
 * integers scaled by 10^8 until the wire formats them.
 */
import type { CandleQuery, CandleRow, Store } from '../ports/store.ts';
import { bucketStart, HOUR_MS, MINUTE_MS, nextBucket, type Granularity } from './granularity.ts';

export interface Candle {
  startMs: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  baseVolume: bigint;
  quoteVolume: bigint;
}

export interface Series {
  kind: CandleQuery['kind'];
  category: string;
  symbol: string;
}

export interface CandleRange {
  startMs?: number;
  endMs: number;
  limit: number;
}

function fold(candle: Candle, row: CandleRow): void {
  if (row.high > candle.high) candle.high = row.high;
  if (row.low < candle.low) candle.low = row.low;
  candle.close = row.close;
  candle.baseVolume += row.baseVolume;
  candle.quoteVolume += row.quoteVolume;
}

function fromRow(startMs: number, row: CandleRow): Candle {
  return { startMs, ...row };
}

function flat(startMs: number, close: bigint): Candle {
  return { startMs, open: close, high: close, low: close, close, baseVolume: 0n, quoteVolume: 0n };
}

/** The first bucket of a range ending in the bucket `endBucket` and holding `count` buckets. */
function rangeStart(granularity: Granularity, endBucket: number, count: number): number {
  if (granularity.kind !== 'month') return endBucket - (count - 1) * granularity.sizeMs;
  let start = endBucket;
  for (let step = 1; step < count; step += 1) start = bucketStart(granularity, start - 1);
  return start;
}

function rangeEnd(granularity: Granularity, startBucket: number, count: number): number {
  let end = startBucket;
  for (let step = 1; step < count; step += 1) end = nextBucket(granularity, end);
  return nextBucket(granularity, end) - 1;
}

export async function loadCandles(
  store: Store,
  series: Series,
  granularity: Granularity,
  range: CandleRange,
): Promise<Candle[]> {
  const endMs =
    range.startMs === undefined
      ? range.endMs
      : Math.min(range.endMs, rangeEnd(granularity, bucketStart(granularity, range.startMs), range.limit));
  if (range.startMs !== undefined && range.startMs > endMs) return [];
  const endBucket = bucketStart(granularity, endMs);
  const firstBucket =
    range.startMs === undefined
      ? rangeStart(granularity, endBucket, range.limit)
      : bucketStart(granularity, range.startMs);
  const query = { ...series, resolution: granularity.base, fromMs: firstBucket, toMs: endMs };
  const [rows, [previous]] = await Promise.all([
    store.candles(query),
    store.candles({ ...query, before: true }),
  ]);
  const candles: Candle[] = [];
  let lastClose = previous?.close;
  let next = 0;
  for (let start = firstBucket; start <= endBucket; start = nextBucket(granularity, start)) {
    const end = nextBucket(granularity, start);
    let candle: Candle | undefined;
    while (next < rows.length && (rows[next] as CandleRow).bucketMs < end) {
      const row = rows[next] as CandleRow;
      if (candle) fold(candle, row);
      else candle = fromRow(start, row);
      next += 1;
    }
    if (!candle && lastClose !== undefined) candle = flat(start, lastClose);
    if (candle) {
      candles.push(candle);
      lastClose = candle.close;
    }
  }
  return range.startMs === undefined ? candles.slice(-range.limit) : candles.slice(0, range.limit);
}

export interface DayStats {
  /** Price 24 hours ago (the close before the window, else the window's first open). */
  open: bigint | null;
  high: bigint | null;
  low: bigint | null;
  baseVolume: bigint;
  quoteVolume: bigint;
  /** Price at 00:00 UTC today, found the same way. */
  openUtc: bigint | null;
}

const DAY_MS = 24 * HOUR_MS;

/**
 * The last 24 hours at minute resolution: minute rows at both ends, hour rows in between, so
 * at most about 150 rows are read whatever the trading rate.
 */
export async function dayStats(store: Store, series: Series, nowMs: number): Promise<DayStats> {
  const windowStart = Math.ceil((nowMs - DAY_MS) / MINUTE_MS) * MINUTE_MS;
  const firstHour = Math.ceil(windowStart / HOUR_MS) * HOUR_MS;
  const lastHour = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  const dayStart = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const minutes = (fromMs: number, toMs: number) =>
    store.candles({ ...series, resolution: '1m', fromMs, toMs });
  const [head, hours, tail, before, beforeDay] = await Promise.all([
    minutes(windowStart, firstHour - 1),
    store.candles({ ...series, resolution: '1h', fromMs: firstHour, toMs: lastHour - 1 }),
    minutes(lastHour, nowMs),
    store.candles({ ...series, resolution: '1m', fromMs: windowStart, toMs: nowMs, before: true }),
    store.candles({ ...series, resolution: '1m', fromMs: dayStart, toMs: nowMs, before: true }),
  ]);
  const rows = [...head, ...hours, ...tail];
  const stats: DayStats = {
    open: before[0]?.close ?? rows[0]?.open ?? null,
    high: null,
    low: null,
    baseVolume: 0n,
    quoteVolume: 0n,
    openUtc: beforeDay[0]?.close ?? null,
  };
  for (const row of rows) {
    if (stats.high === null || row.high > stats.high) stats.high = row.high;
    if (stats.low === null || row.low < stats.low) stats.low = row.low;
    stats.baseVolume += row.baseVolume;
    stats.quoteVolume += row.quoteVolume;
  }
  if (stats.openUtc === null && rows.length > 0) {
    stats.openUtc = rows.find((row) => row.bucketMs >= dayStart)?.open ?? null;
  }
  return stats;
}
