/**
 * Public channel rows: tickers (with mark and index price and funding for futures), trades,
 * candles and order-book messages, in the v2 and v3 shapes. Ticker and candle figures come
 * from the same functions as the REST market endpoints (market/market-data.ts, the futures
 * hooks, the stored candles); the ticker's best bid and ask come from the durable book mirror,
 * so they agree with the books channel.
 */
import { isFutures } from '../../domain/category.ts';
import type { TradeRecorded } from '../../domain/events.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { loadCandles } from '../../market/candles.ts';
import { nextFundingTimeOf } from '../../market/futures-hooks.ts';
import type { Granularity } from '../../market/granularity.ts';
import { tickerOf } from '../../market/market-data.ts';
import type { TradeRow } from '../../ports/store.ts';
import { futuresExtras, futuresView } from '../routes/market-mix.ts';
import type { Services } from '../services.ts';
import { candleRow, v2MixTickerRow, v2SpotTickerRow, v3TickerRow } from '../wire/market.ts';
import type { BookLevels } from './book-mirror.ts';
import { bookChecksum } from './checksum.ts';
import type { Dialect } from './channels.ts';

type Row = Record<string, unknown>;

/** How many trades and candles a subscription's first (snapshot) push carries. */
export const TRADE_SNAPSHOT_SIZE = 50;
export const CANDLE_SNAPSHOT_SIZE = 100;

export async function tickerRow(
  services: Services,
  instrument: Instrument,
  dialect: Dialect,
  top: BookLevels,
): Promise<Row> {
  const exchange = services.sequencer.exchange;
  const ticker = await tickerOf(exchange, services.store, instrument, services.clock.now());
  const [bid] = top.bids;
  const [ask] = top.asks;
  const data = {
    ...ticker,
    bidPrice: bid?.[0] ?? '',
    bidSize: bid?.[1] ?? '',
    askPrice: ask?.[0] ?? '',
    askSize: ask?.[1] ?? '',
  };
  const futures = isFutures(instrument.category);
  const extras = futures ? futuresExtras(services, instrument) : null;
  const nextFunding = futures ? String(nextFundingTimeOf(futuresView(services), instrument)) : '';
  if (dialect === 'v3')
    return { ...v3TickerRow(data, extras), ...(futures ? { nextFundingTime: nextFunding } : {}) };
  if (!extras) return { instId: instrument.symbol, ...v2SpotTickerRow(data) };
  return {
    instId: instrument.symbol,
    ...v2MixTickerRow(data, extras),
    nextFundingTime: nextFunding,
    symbolType: instrument.symbolType === 'delivery' ? '2' : '1',
    deliveryPrice: '0',
  };
}

export function tradeRow(trade: TradeRecorded | TradeRow, dialect: Dialect): Row {
  if (dialect === 'v3') {
    // The venue's documented sample has `p`; its live rows (as ccxt.pro reads them) `P` and the
    // execution correlation id `L`. Both price keys are sent; a trade is its own correlation.
    return {
      T: String(trade.timeMs),
      P: trade.price,
      p: trade.price,
      v: trade.quantity,
      S: trade.side,
      L: trade.tradeId,
      i: trade.tradeId,
    };
  }
  return {
    ts: String(trade.timeMs),
    price: trade.price,
    size: trade.quantity,
    side: trade.side,
    tradeId: trade.tradeId,
  };
}

/** The latest `count` candles, oldest first, as rows of the channel. */
export async function candleRows(
  services: Services,
  instrument: Instrument,
  granularity: Granularity,
  dialect: Dialect,
  count: number,
): Promise<string[][]> {
  const candles = await loadCandles(
    services.store,
    { kind: 'market', category: instrument.category, symbol: instrument.symbol },
    granularity,
    { endMs: services.clock.now(), limit: count },
  );
  return candles.map((candle) => candleRow(candle, dialect === 'v2'));
}

export interface BookPush {
  levels: BookLevels;
  /** The levels the client holds after this push (for the checksum). */
  held: BookLevels;
  seq: number;
  pseq: number;
  timeMs: number;
}

export function bookRow(push: BookPush, dialect: Dialect): Row {
  const checksum = bookChecksum(push.held.bids, push.held.asks);
  const sides =
    dialect === 'v2'
      ? { asks: push.levels.asks, bids: push.levels.bids }
      : { a: push.levels.asks, b: push.levels.bids };
  return { ...sides, checksum, seq: push.seq, pseq: push.pseq, ts: String(push.timeMs) };
}
