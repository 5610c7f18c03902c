/**
 * Replay files: index prices played back from candles or trades, CSV or JSON Lines.
 *
 * CSV: one row per line, `time,price` (trades; more columns ignored) or
 * `time,open,high,low,close[,volume…]` (candles, the venue's candle row); a header line and
 * `#` comments are skipped. JSON Lines: objects with `ts`/`time`/`timestamp` and `price`, or
 * with `open`,`high`,`low`,`close`; or arrays as in CSV. Times are Unix ms (seconds are
 * recognised and scaled). A candle plays as four points across its interval: open, then the
 * extreme nearer the open, then the other, then close, so limit orders can fill at its highs
 * and lows.
 */
import { readFileSync } from 'node:fs';

export interface PricePoint {
  timeMs: number;
  price: number;
}

interface Row {
  timeMs: number;
  prices: number[];
}

function timeOf(value: unknown): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) return Number.NaN;
  return number < 1e11 ? number * 1000 : number;
}

function rowOf(values: unknown[]): Row | null {
  const timeMs = timeOf(values[0]);
  const prices = values.slice(1, 5).map(Number);
  if (Number.isNaN(timeMs) || prices.length === 0 || prices.some((price) => !(price > 0))) return null;
  return { timeMs, prices: prices.length >= 4 ? prices.slice(0, 4) : prices.slice(0, 1) };
}

function jsonRow(value: unknown): Row | null {
  if (Array.isArray(value)) return rowOf(value);
  if (value === null || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  const time = record.ts ?? record.time ?? record.timestamp;
  if (record.open !== undefined) return rowOf([time, record.open, record.high, record.low, record.close]);
  return rowOf([time, record.price ?? record.close]);
}

export function parseReplay(text: string, format: 'csv' | 'jsonl'): PricePoint[] {
  const rows: Row[] = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    let row: Row | null;
    if (format === 'jsonl') {
      try {
        row = jsonRow(JSON.parse(line));
      } catch {
        row = null;
      }
    } else row = rowOf(line.split(/[,;\t]/).map((cell) => cell.trim()));
    if (row) rows.push(row);
    else if (!(format === 'csv' && rows.length === 0 && index === 0)) {
      throw new Error(`replay line ${index + 1} is neither a trade nor a candle: ${line.slice(0, 80)}`);
    }
  }
  if (rows.length === 0) throw new Error('replay file holds no prices');
  rows.sort((a, b) => a.timeMs - b.timeMs);
  const points: PricePoint[] = [];
  rows.forEach((row, index) => {
    if (row.prices.length === 1) {
      points.push({ timeMs: row.timeMs, price: row.prices[0] as number });
      return;
    }
    const [open, high, low, close] = row.prices as [number, number, number, number];
    const next = rows[index + 1]?.timeMs;
    const previous = rows[index - 1]?.timeMs;
    const span =
      next !== undefined ? next - row.timeMs : previous !== undefined ? row.timeMs - previous : 60_000;
    const extremes = close >= open ? [low, high] : [high, low];
    [open, ...extremes, close].forEach((price, step) =>
      points.push({ timeMs: row.timeMs + Math.floor((span * step) / 4), price }),
    );
  });
  return points;
}

export function loadReplay(file: string, format?: 'csv' | 'jsonl'): PricePoint[] {
  const chosen = format ?? (/\.(jsonl|ndjson|json)$/i.test(file) ? 'jsonl' : 'csv');
  return parseReplay(readFileSync(file, 'utf8'), chosen);
}

/** The price in force `elapsedMs` of replay time after the first point. */
export function priceAtElapsed(points: readonly PricePoint[], elapsedMs: number, loop: boolean): number {
  const first = points[0] as PricePoint;
  const last = points[points.length - 1] as PricePoint;
  const span = last.timeMs - first.timeMs;
  const offset = loop && span > 0 ? elapsedMs % (span + 1) : Math.min(elapsedMs, span);
  const target = first.timeMs + offset;
  let low = 0;
  let high = points.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((points[middle] as PricePoint).timeMs <= target) low = middle;
    else high = middle - 1;
  }
  return (points[low] as PricePoint).price;
}
