/**
 * Candle rows: every trade (kind `market`) and every index price (kind `index`) is merged
 * into a one-minute and a one-hour row of table `candles` (schema.ts, migration 20). Longer
 * and odd granularities are built from these at read time (src/market/candles.ts), so a
 * trade costs two row merges whatever is asked later.
 *
 * Numbers are integers scaled by 10^8 (the money scale): an instrument's price and quantity
 * have at most 8 decimals together, so a trade's quote value is exact too. The merge itself
 * (open kept, high max, low min, close replaced, volumes summed) is declared on the table and
 * done by the store in SQL, so a row is never read back to be written. Within one batch the
 * rows of trades are merged as they are added (CandleMerge), which is what folding them before
 * the write (fold-rows.ts) would give.
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

/** A decimal text and its scaled value, remembered: a run of trades mostly repeats a price and a quantity. */
class ScaledMemo {
  private text = '';
  private value: bigint | null = null;
  private valueText = '';

  of(text: string): bigint | null {
    if (text !== this.text) {
      this.text = text;
      this.value = scaledOf(text);
      this.valueText = this.value === null ? '' : this.value.toString();
    }
    return this.value;
  }

  /** The text of the value `of` last returned. */
  get scaledText(): string {
    return this.valueText;
  }
}

// Column positions of a candle row (table `candles`, schema.ts): id, kind, category, symbol,
// resolution, bucket_ms, open, high, low, close, base_volume, quote_volume, trades, updated_ms.
const CATEGORY = 2;
const SYMBOL = 3;
const BUCKET_MS = 5;
const HIGH = 7;
const LOW = 8;
const CLOSE = 9;
const BASE_VOLUME = 10;
const QUOTE_VOLUME = 11;
const TRADES = 12;
const UPDATED_MS = 13;

const KIND_SLOTS: Readonly<Record<CandleKind, number>> = { market: 0, taker_buy: 1, index: 2, mark: 3 };

/** One candle row of a batch and its merged sums, kept as integers until the row is read. */
interface CandleSum {
  readonly row: Value[];
  high: bigint;
  low: bigint;
  base: bigint;
  quote: bigint;
  stale: boolean;
}

/**
 * The candle rows of one batch's trades, each key merged as it is added by the table's merge
 * rules (open kept, high max, low min, close replaced, volumes and trades summed, updated_ms
 * replaced): the rows candleRows would give for every trade, folded (fold-rows.ts). A crossing
 * place-batch merges about two trades per candle row per order; building a named row per trade
 * and folding it afterwards (decimal text parsed to bigint at every merge) cost the event loop
 * about 1.5-2 µs per crossing order (bench/projection-handoff.bench.ts). Sums stay bigint
 * until `settle` writes them into their rows as text.
 */
export class CandleMerge {
  private readonly sums = new Map<string, CandleSum>();
  private readonly stale: CandleSum[] = [];
  private readonly prices = new ScaledMemo();
  private readonly quantities = new ScaledMemo();
  /**
   * The row each kind and resolution merged last: a run of trades of one symbol hits it again
   * until the bucket turns, without building the key's text to look it up.
   */
  private readonly recent: (CandleSum | undefined)[] = [];

  /** Merges a trade into its rows; a key not seen before pushes its row onto `rows`. */
  add(
    rows: Value[][],
    kind: CandleKind,
    category: string,
    symbol: string,
    price: string,
    quantity: string,
    timeMs: number,
  ): void {
    const scaledPrice = this.prices.of(price);
    const base = this.quantities.of(quantity);
    if (scaledPrice === null || base === null) return;
    const priceText = this.prices.scaledText;
    const quote = (scaledPrice * base) / SCALE;
    const trades = kind === 'market' ? 1 : 0;
    for (let at = 0; at < RESOLUTIONS.length; at += 1) {
      const [resolution, sizeMs] = RESOLUTIONS[at] as ['1m' | '1h', number];
      const bucketMs = Math.floor(timeMs / sizeMs) * sizeMs;
      const slot = KIND_SLOTS[kind] * RESOLUTIONS.length + at;
      let sum = this.recent[slot];
      if (
        sum === undefined ||
        sum.row[BUCKET_MS] !== bucketMs ||
        sum.row[SYMBOL] !== symbol ||
        sum.row[CATEGORY] !== category
      ) {
        sum = this.sums.get(candleId(kind, category, symbol, resolution, bucketMs));
        if (sum !== undefined) this.recent[slot] = sum;
      }
      if (sum === undefined) {
        const id = candleId(kind, category, symbol, resolution, bucketMs);
        const row: Value[] = [
          id,
          kind,
          category,
          symbol,
          resolution,
          bucketMs,
          priceText,
          priceText,
          priceText,
          priceText,
          this.quantities.scaledText,
          quote.toString(),
          trades,
          timeMs,
        ];
        rows.push(row);
        const added: CandleSum = { row, high: scaledPrice, low: scaledPrice, base, quote, stale: false };
        this.sums.set(id, added);
        this.recent[slot] = added;
        continue;
      }
      if (scaledPrice > sum.high) sum.high = scaledPrice;
      if (scaledPrice < sum.low) sum.low = scaledPrice;
      sum.base += base;
      sum.quote += quote;
      const row = sum.row;
      row[CLOSE] = priceText;
      row[TRADES] = (row[TRADES] as number) + trades;
      row[UPDATED_MS] = timeMs;
      if (!sum.stale) {
        sum.stale = true;
        this.stale.push(sum);
      }
    }
  }

  /** Writes the sums merged since the last call into their rows. */
  settle(): void {
    for (const sum of this.stale) {
      const row = sum.row;
      row[HIGH] = sum.high.toString();
      row[LOW] = sum.low.toString();
      row[BASE_VOLUME] = sum.base.toString();
      row[QUOTE_VOLUME] = sum.quote.toString();
      sum.stale = false;
    }
    this.stale.length = 0;
  }
}
