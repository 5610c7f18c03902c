/**
 * Instruments and their live tickers, as the Markets views show them. Instruments come from the
 * operator API (every status); tickers from the public `ticker` channel, whose first push is a
 * snapshot. Margin pairs trade on the spot book, so they have no ticker of their own.
 */
import { operator } from './api.ts';

export interface InstrumentRow {
  category: string;
  symbol: string;
  baseCoin: string;
  quoteCoin: string;
  status: string;
  pricePrecision: string;
  quantityPrecision: string;
  [field: string]: unknown;
}

export interface Ticker {
  last: string;
  open24h: string;
  change24h: string;
  baseVolume: string;
  quoteVolume: string;
  indexPrice: string;
  markPrice: string;
  fundingRate: string;
  bid: string;
  ask: string;
  ts: string;
}

export const PUSH_CATEGORIES = [
  'SPOT',
  'USDT-FUTURES',
  'COIN-FUTURES',
  'USDC-FUTURES',
  'SUSDT-FUTURES',
  'SCOIN-FUTURES',
  'SUSDC-FUTURES',
];

export async function loadInstruments(): Promise<InstrumentRow[]> {
  const rows = await operator<InstrumentRow[]>('GET', '/instruments');
  return rows.filter((row) => PUSH_CATEGORIES.includes(row.category));
}

/** A v2 ticker row (spot or futures) in one shape; a field the row lacks is ''. */
export function tickerOf(row: Record<string, unknown>): Ticker {
  const text = (name: string) => {
    const value = row[name];
    return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  };
  return {
    last: text('lastPr'),
    open24h: text('open24h') || text('open'),
    change24h: text('change24h'),
    baseVolume: text('baseVolume'),
    quoteVolume: text('quoteVolume'),
    indexPrice: text('indexPrice'),
    markPrice: text('markPrice'),
    fundingRate: text('fundingRate'),
    bid: text('bidPr'),
    ask: text('askPr'),
    ts: text('ts'),
  };
}

export const instrumentKey = (category: string, symbol: string) => `${category}|${symbol}`;
