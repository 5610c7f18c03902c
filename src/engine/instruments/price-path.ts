/**
 * A price path carried by AdvanceClock: each stream lists instruments and a regular series of
 * prices. The exchange walks the union of the streams' step times in order; at each time the
 * streams due there set their instruments' index prices (rounded half up to each instrument's
 * precision). The prices taken are reported once per instrument at the end, as minute bars
 * (IndexBarsWalked), not as one event per step: a day of one-second steps is 86,400 steps.
 *
 * Invariants: the path is checked whole before the clock moves (a bad path changes nothing);
 * every step lies in (startMs, endMs]; the number of prices in one command is bounded so one
 * journal entry stays small.
 */
import type { PricePathStream } from '../../domain/commands.ts';
import { isDecimalText, roundDecimalText } from '../../domain/decimal.ts';
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import type { Context } from '../context.ts';
import type { IndexBar } from '../../domain/events.ts';

const MINUTE_MS = 60_000;

/** Prices one command may carry over all its streams (about 12 MB of journal at most). */
export const MAX_PATH_PRICES = 1_000_000;
const MAX_PATH_STREAMS = 1_000;

interface StreamCursor {
  instruments: Instrument[];
  places: number[];
  firstMs: number;
  intervalMs: number;
  prices: string[];
  next: number;
}

function checkStream(
  instruments: ReadonlyMap<string, Instrument>,
  stream: PricePathStream,
  startMs: number,
  endMs: number,
): Outcome<StreamCursor> {
  const { firstMs, intervalMs, prices } = stream;
  if (!Number.isSafeInteger(intervalMs) || intervalMs < 1) return fail('PARAM_ERROR', 'path.intervalMs');
  if (!Number.isSafeInteger(firstMs) || firstMs <= startMs) return fail('PARAM_ERROR', 'path.firstMs');
  if (prices.length > 0 && firstMs + (prices.length - 1) * intervalMs > endMs) {
    return fail('PARAM_ERROR', 'path.prices');
  }
  for (const price of prices) {
    if (!isDecimalText(price) || !(Number(price) > 0)) return fail('PARAM_ERROR', 'path.prices');
  }
  const found: Instrument[] = [];
  for (const { category, symbol } of stream.instruments) {
    const instrument = instruments.get(instrumentKey(category, symbol));
    if (!instrument) return fail('SYMBOL_NOT_FOUND', symbol);
    found.push(instrument);
  }
  const places = found.map((instrument) => Number(instrument.pricePrecision || '0'));
  return ok({ instruments: found, places, firstMs, intervalMs, prices, next: 0 });
}

/** `price` printed with exactly `places` decimals; most path prices already are (no parse). */
function atPlaces(price: string, places: number): string | null {
  const point = price.indexOf('.');
  const decimals = point < 0 ? 0 : price.length - point - 1;
  if (decimals === places) return price;
  return roundDecimalText(price, places);
}

/** Compares two prices printed with the same number of decimals (no float). */
function compareFixed(left: string, right: string): number {
  if (left.length !== right.length) return left.length - right.length;
  return left < right ? -1 : left > right ? 1 : 0;
}

interface Walked {
  instrument: Instrument;
  bars: IndexBar[];
}

export class PricePathWalk {
  private readonly walked = new Map<string, Walked>();

  private constructor(private readonly cursors: StreamCursor[]) {}

  /** Checks a path against the instruments and the advance's window. */
  static open(
    instruments: ReadonlyMap<string, Instrument>,
    path: readonly PricePathStream[],
    startMs: number,
    endMs: number,
  ): Outcome<PricePathWalk> {
    if (path.length > MAX_PATH_STREAMS) return fail('PARAM_ERROR', 'path');
    let total = 0;
    for (const stream of path) total += stream.prices.length;
    if (total > MAX_PATH_PRICES) return fail('PARAM_ERROR', 'path');
    const cursors: StreamCursor[] = [];
    for (const stream of path) {
      const checked = checkStream(instruments, stream, startMs, endMs);
      if (!checked.ok) return checked;
      cursors.push(checked.value);
    }
    return ok(new PricePathWalk(cursors));
  }

  /** The earliest step not yet applied, or null when the path is done. */
  nextMs(): number | null {
    let earliest: number | null = null;
    for (const cursor of this.cursors) {
      if (cursor.next >= cursor.prices.length) continue;
      const atMs = cursor.firstMs + cursor.next * cursor.intervalMs;
      if (earliest === null || atMs < earliest) earliest = atMs;
    }
    return earliest;
  }

  /** Sets the index prices of every stream whose step falls at `atMs`. */
  applyAt(context: Context, atMs: number): void {
    for (const cursor of this.cursors) {
      if (cursor.next >= cursor.prices.length) continue;
      if (cursor.firstMs + cursor.next * cursor.intervalMs !== atMs) continue;
      const price = cursor.prices[cursor.next] ?? '';
      cursor.next += 1;
      cursor.instruments.forEach((instrument, index) => {
        const text = atPlaces(price, cursor.places[index] ?? 0);
        if (text === null || Number(text) <= 0) return;
        const key = instrumentKey(instrument.category, instrument.symbol);
        context.state.indexPrices.set(key, text);
        if (context.recording) this.record(key, instrument, atMs, text);
      });
    }
  }

  private record(key: string, instrument: Instrument, atMs: number, price: string): void {
    let walked = this.walked.get(key);
    if (!walked) this.walked.set(key, (walked = { instrument, bars: [] }));
    const startMs = Math.floor(atMs / MINUTE_MS) * MINUTE_MS;
    const bar = walked.bars[walked.bars.length - 1];
    if (!bar || bar.startMs !== startMs) {
      walked.bars.push({ startMs, open: price, high: price, low: price, close: price });
      return;
    }
    if (compareFixed(price, bar.high) > 0) bar.high = price;
    if (compareFixed(price, bar.low) < 0) bar.low = price;
    bar.close = price;
  }

  /** Reports the walked prices: one IndexBarsWalked per instrument. */
  emitBars(context: Context): void {
    for (const { instrument, bars } of this.walked.values()) {
      context.emit({
        type: 'IndexBarsWalked',
        category: instrument.category,
        symbol: instrument.symbol,
        bars,
        timeMs: context.nowMs,
      });
    }
    this.walked.clear();
  }
}
