/**
 * Candle granularities as the venue spells them, and where each bucket starts.
 *
 * One table serves every endpoint: the v2 spot names (`1min`, `1day`, …), the v2 futures and
 * v3 names (`1m`, `1H`, `1D`, …), ccxt's `2H`, and the `…utc` variants. Case matters only
 * where the venue's does (`1m` is a minute, `1M` a month). Buckets of six hours and more are
 * aligned to UTC+8 unless the name ends in `utc` (the venue's rule); shorter ones line up in
 * both zones, since UTC+8 is a whole number of hours away. Weeks start on Monday.
 *
 * Candles are built from stored one-minute and one-hour rows (persistence/candle-rows.ts):
 * granularities under an hour from minutes, the rest from hours.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
const UTC8_MS = 8 * HOUR_MS;

export type BaseResolution = '1m' | '1h';

export interface Granularity {
  /** Bucket length; months use 31 days only to size default ranges. */
  sizeMs: number;
  kind: 'fixed' | 'week' | 'month';
  /** Offset of the bucket grid's time zone from UTC. */
  zoneMs: number;
  base: BaseResolution;
}

function fixed(sizeMs: number, utc: boolean): Granularity {
  const zoneMs = sizeMs >= 6 * HOUR_MS && !utc ? UTC8_MS : 0;
  return { sizeMs, kind: 'fixed', zoneMs, base: sizeMs < HOUR_MS ? '1m' : '1h' };
}

const TABLE: Record<string, Granularity> = {};
const add = (names: string[], granularity: Granularity) => {
  for (const name of names) TABLE[name] = granularity;
};
add(['1min', '1m'], fixed(MINUTE_MS, false));
add(['3min', '3m'], fixed(3 * MINUTE_MS, false));
add(['5min', '5m'], fixed(5 * MINUTE_MS, false));
add(['15min', '15m'], fixed(15 * MINUTE_MS, false));
add(['30min', '30m'], fixed(30 * MINUTE_MS, false));
add(['1h', '1H'], fixed(HOUR_MS, false));
add(['2h', '2H'], fixed(2 * HOUR_MS, false));
add(['4h', '4H'], fixed(4 * HOUR_MS, false));
add(['6h', '6H'], fixed(6 * HOUR_MS, false));
add(['12h', '12H'], fixed(12 * HOUR_MS, false));
add(['1day', '1D', '1d'], fixed(DAY_MS, false));
add(['3day', '3D', '3d'], fixed(3 * DAY_MS, false));
add(['6Hutc', '6hutc'], fixed(6 * HOUR_MS, true));
add(['12Hutc', '12hutc'], fixed(12 * HOUR_MS, true));
add(['1Dutc', '1dutc'], fixed(DAY_MS, true));
add(['3Dutc', '3dutc'], fixed(3 * DAY_MS, true));
add(['1week', '1W', '1w'], { sizeMs: 7 * DAY_MS, kind: 'week', zoneMs: UTC8_MS, base: '1h' });
add(['1Wutc', '1wutc'], { sizeMs: 7 * DAY_MS, kind: 'week', zoneMs: 0, base: '1h' });
add(['1M', '1month'], { sizeMs: 31 * DAY_MS, kind: 'month', zoneMs: UTC8_MS, base: '1h' });
add(['1Mutc'], { sizeMs: 31 * DAY_MS, kind: 'month', zoneMs: 0, base: '1h' });

export function parseGranularity(text: string): Granularity | null {
  return Object.hasOwn(TABLE, text) ? (TABLE[text] ?? null) : null;
}

/** Monday 1970-01-05 00:00 is 4 days after the epoch (a Thursday). */
const FIRST_MONDAY_MS = 4 * DAY_MS;

export function bucketStart(granularity: Granularity, timeMs: number): number {
  const local = timeMs + granularity.zoneMs;
  if (granularity.kind === 'fixed') {
    return Math.floor(local / granularity.sizeMs) * granularity.sizeMs - granularity.zoneMs;
  }
  if (granularity.kind === 'week') {
    const weeks = Math.floor((local - FIRST_MONDAY_MS) / granularity.sizeMs);
    return FIRST_MONDAY_MS + weeks * granularity.sizeMs - granularity.zoneMs;
  }
  const date = new Date(local);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1) - granularity.zoneMs;
}

/** The start of the bucket after the one starting at `startMs`. */
export function nextBucket(granularity: Granularity, startMs: number): number {
  if (granularity.kind !== 'month') return startMs + granularity.sizeMs;
  const date = new Date(startMs + granularity.zoneMs);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1) - granularity.zoneMs;
}

export function baseSizeMs(base: BaseResolution): number {
  return base === '1m' ? MINUTE_MS : HOUR_MS;
}
