/**
 * Futures market statistics computed from bourse's own records (docs/market-data.md, "Market
 * statistics"): taker buy/sell volume, and the long/short ratios of accounts and of top traders,
 * per period over the last STAT_ROWS periods.
 *
 * Nothing here runs on a timer. A period's figures are rebuilt when asked:
 * - taker volume from the candle rows: `taker_buy` rows hold the volume of trades whose taker
 *   bought; the taker-sell volume is the period's market volume less it;
 * - who held what at the end of a period (or now, for the current one) from the open
 *   positions of the engine and the lives of closed positions (table `position_spans`): a
 *   position counts from when it opened until it closed completely, weighted by the size it
 *   opened over its life (the figure position history reports). Sizes in between are not
 *   recorded, so a position that shrank still weighs what it opened.
 *
 * Ratios have four decimals, cut toward zero; a ratio whose denominator is zero (no account on
 * that side) is "0". Periods align to UTC. Limits: STAT_ROWS periods per answer.
 */
import { divide, formatScaled, parseScaled } from '../domain/decimal.ts';
import type { PositionSpanRow, Store } from '../ports/store.ts';
import { CANDLE_SCALE } from '../persistence/candle-rows.ts';
import { loadCandles } from './candles.ts';
import type { OpenHolding } from './futures-hooks.ts';
import { bucketStart, nextBucket, parseGranularity, type Granularity } from './granularity.ts';

/** Rows per answer: the last 30 periods, oldest first. */
export const STAT_ROWS = 30;
const RATIO_PLACES = 4;
const SIZE_SCALE = 8;
/** Top traders: the fifth of the accounts holding a position with the largest sizes. */
const TOP_SHARE = 5;

const PERIODS = new Map<string, string>([
  ['5m', '5m'],
  ['15m', '15m'],
  ['30m', '30m'],
  ['1h', '1h'],
  ['2h', '2h'],
  ['4h', '4h'],
  ['6h', '6hutc'],
  ['12h', '12hutc'],
  ['1d', '1dutc'],
]);

/** A period as the venue names it (`5m` … `1d`, any case; default `5m`), or null. */
export function statPeriodOf(text: string | undefined): Granularity | null {
  const name = PERIODS.get((text ?? '5m').toLowerCase());
  return name === undefined ? null : parseGranularity(name);
}

/** Starts of the last `count` periods up to the one holding `nowMs`, oldest first. */
export function periodStarts(period: Granularity, nowMs: number, count: number): number[] {
  const last = bucketStart(period, nowMs);
  return Array.from({ length: count }, (_, index) => last - (count - 1 - index) * period.sizeMs);
}

export interface TakerVolume {
  startMs: number;
  /** Base-coin volumes, integers scaled by 10^8. */
  buy: bigint;
  sell: bigint;
}

export async function takerVolumes(
  store: Store,
  series: { category: string; symbol: string },
  period: Granularity,
  nowMs: number,
): Promise<TakerVolume[]> {
  const range = { endMs: nowMs, limit: STAT_ROWS };
  const [market, buys] = await Promise.all([
    loadCandles(store, { ...series, kind: 'market' }, period, range),
    loadCandles(store, { ...series, kind: 'taker_buy' }, period, range),
  ]);
  const totalBy = new Map(market.map((candle) => [candle.startMs, candle.baseVolume]));
  const buyBy = new Map(buys.map((candle) => [candle.startMs, candle.baseVolume]));
  return periodStarts(period, nowMs, STAT_ROWS).map((startMs) => {
    const buy = buyBy.get(startMs) ?? 0n;
    return { startMs, buy, sell: (totalBy.get(startMs) ?? 0n) - buy };
  });
}

export function formatVolume(volume: bigint): string {
  return formatScaled(volume, CANDLE_SCALE);
}

export interface Holding {
  uid: string;
  holdSide: string;
  /** Size opened, scaled by 10^8. */
  size: bigint;
}

/** The positions held at `atMs`: open ones opened by then, closed ones open at that moment. */
export function holdingsAt(
  spans: readonly PositionSpanRow[],
  open: readonly OpenHolding[],
  atMs: number,
): Holding[] {
  const held = (size: string) => parseScaled(size, SIZE_SCALE) ?? 0n;
  return [
    ...spans
      .filter((span) => span.openedMs <= atMs && span.closedMs > atMs)
      .map((span) => ({ uid: span.uid, holdSide: span.holdSide, size: held(span.size) })),
    ...open
      .filter((position) => position.openedMs <= atMs)
      .map((position) => ({ uid: position.uid, holdSide: position.holdSide, size: held(position.size) })),
  ];
}

export interface PeriodHoldings {
  startMs: number;
  holdings: Holding[];
}

/** Who held what at the end of each of the last STAT_ROWS periods (now, for the current one). */
export async function holdingSeries(
  store: Store,
  series: { category: string; symbol: string },
  open: readonly OpenHolding[],
  period: Granularity,
  nowMs: number,
): Promise<PeriodHoldings[]> {
  const starts = periodStarts(period, nowMs, STAT_ROWS);
  const spans = await store.positionSpans({ ...series, closedFromMs: starts[0] ?? nowMs });
  return starts.map((startMs) => ({
    startMs,
    holdings: holdingsAt(spans, open, Math.min(nextBucket(period, startMs) - 1, nowMs)),
  }));
}

export interface SideRatios {
  long: string;
  short: string;
  longShort: string;
}

function ratio(part: bigint, whole: bigint): string {
  if (whole === 0n) return '0';
  return formatScaled(divide(part * 10n ** BigInt(RATIO_PLACES), whole, 'down'), RATIO_PLACES);
}

function sideRatios(long: bigint, short: bigint): SideRatios {
  return {
    long: ratio(long, long + short),
    short: ratio(short, long + short),
    longShort: ratio(long, short),
  };
}

function accountsBySide(holdings: readonly Holding[]): [bigint, bigint] {
  const long = new Set(
    holdings.filter((holding) => holding.holdSide === 'long').map((holding) => holding.uid),
  );
  const short = new Set(
    holdings.filter((holding) => holding.holdSide === 'short').map((holding) => holding.uid),
  );
  return [BigInt(long.size), BigInt(short.size)];
}

/** Accounts holding a long against accounts holding a short (an account in both counts twice). */
export function accountRatios(holdings: readonly Holding[]): SideRatios {
  const [long, short] = accountsBySide(holdings);
  return sideRatios(long, short);
}

/** The holdings of the top traders: the fifth (at least one) of the accounts with the largest total size. */
function topHoldings(holdings: readonly Holding[]): Holding[] {
  const sizeBy = new Map<string, bigint>();
  for (const holding of holdings) sizeBy.set(holding.uid, (sizeBy.get(holding.uid) ?? 0n) + holding.size);
  const ranked = [...sizeBy.entries()].sort(([uidA, a], [uidB, b]) =>
    a === b ? (uidA < uidB ? -1 : 1) : a > b ? -1 : 1,
  );
  const top = new Set(ranked.slice(0, Math.ceil(ranked.length / TOP_SHARE)).map(([uid]) => uid));
  return holdings.filter((holding) => top.has(holding.uid));
}

/** Top traders' long size against their short size. */
export function topPositionRatios(holdings: readonly Holding[]): SideRatios {
  let long = 0n;
  let short = 0n;
  for (const holding of topHoldings(holdings)) {
    if (holding.holdSide === 'long') long += holding.size;
    else short += holding.size;
  }
  return sideRatios(long, short);
}

/** Top traders holding a long against top traders holding a short. */
export function topAccountRatios(holdings: readonly Holding[]): SideRatios {
  const [long, short] = accountsBySide(topHoldings(holdings));
  return sideRatios(long, short);
}
