/**
 * What the public market routes share: reading the instrument a query names (symbol with
 * productType or category, any case), limits, granularities, and loading candles and
 * tickers. Market routes are unsigned and limited per IP; their time is the engine clock,
 * so candles and 24-hour windows follow simulated time.
 */
import { FUTURES_CATEGORIES, parseCategory, V3_CATEGORIES, type Category } from '../../domain/category.ts';
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import type { CandleKind } from '../../persistence/candle-rows.ts';
import { loadCandles, type Candle } from '../../market/candles.ts';
import { parseGranularity, type Granularity } from '../../market/granularity.ts';
import { optionalInteger, optionalString, type Fields } from '../params.ts';
import { reject, type ApiRequest, type Route } from '../request.ts';
import type { Dialect } from '../error-map.ts';
import type { Services } from '../services.ts';
import { pageLimit } from './query-window.ts';

export function publicRoute(
  path: string,
  dialect: Dialect,
  perSecond: number,
  handler: (request: ApiRequest) => unknown,
): Route {
  return { method: 'GET', path, auth: 'public', dialect, rateLimit: { perSecond, by: 'ip' }, handler };
}

export function requiredQuery(query: Fields, name: string): string {
  const value = optionalString(query, name);
  if (value === undefined) reject('PARAM_EMPTY', name);
  return value;
}

/** v2 futures `productType`, in any case; the demo product types included. */
export function productTypeOf(query: Fields): Category {
  const category = parseCategory(requiredQuery(query, 'productType'), FUTURES_CATEGORIES);
  if (!category) reject('PARAM_ERROR', 'productType');
  return category;
}

/** v3 `category`, in any case, limited to `allowed`. */
export function v3CategoryOf(query: Fields, allowed: readonly Category[] = V3_CATEGORIES): Category {
  const category = parseCategory(requiredQuery(query, 'category'), allowed);
  if (!category) reject('PARAM_ERROR', 'category');
  return category;
}

export function instrumentsOf(services: Services, category: Category): Instrument[] {
  return [...services.sequencer.exchange.state.instruments.values()].filter(
    (instrument) => instrument.category === category,
  );
}

export function instrumentOf(services: Services, category: Category, symbolText: string): Instrument {
  const symbol = symbolText.toUpperCase();
  const instrument = services.sequencer.exchange.state.instruments.get(instrumentKey(category, symbol));
  if (!instrument) reject('SYMBOL_NOT_FOUND', symbol);
  return instrument;
}

/** The instruments a query selects: its `symbol` if given (which must exist), else all. */
export function selectedInstruments(services: Services, category: Category, query: Fields): Instrument[] {
  const symbol = optionalString(query, 'symbol');
  return symbol ? [instrumentOf(services, category, symbol)] : instrumentsOf(services, category);
}

export function limitOf(query: Fields, fallback: number, maximum: number): number {
  return pageLimit(query, fallback, maximum);
}

export function granularityOf(query: Fields, name: string): Granularity {
  const granularity = parseGranularity(requiredQuery(query, name));
  if (!granularity) reject('PARAM_ERROR', name);
  return granularity;
}

/** `MARKET` (default), `MARK` or `INDEX`, in any case. */
export function candleKindOf(query: Fields, name: string): CandleKind {
  const text = optionalString(query, name)?.toUpperCase() ?? 'MARKET';
  if (text === 'MARKET') return 'market';
  // futures: mark candles are the index's until the engine publishes mark prices.
  if (text === 'MARK' || text === 'INDEX') return 'index';
  reject('PARAM_ERROR', name);
}

export interface CandleRequest {
  instrument: Instrument;
  kind: CandleKind;
  granularity: Granularity;
  defaultLimit: number;
  maxLimit: number;
  endTimeRequired?: boolean;
}

export function candlesFor(services: Services, query: Fields, request: CandleRequest): Promise<Candle[]> {
  const startMs = optionalInteger(query, 'startTime');
  const endTime = optionalInteger(query, 'endTime');
  if (request.endTimeRequired && endTime === undefined) reject('PARAM_EMPTY', 'endTime');
  const nowMs = services.clock.now();
  const endMs = Math.min(endTime ?? nowMs, nowMs);
  if (startMs !== undefined && endTime !== undefined && endTime < startMs) {
    reject('TIME_RANGE_INVALID', 'endTime < startTime');
  }
  const { instrument } = request;
  return loadCandles(
    services.store,
    { kind: request.kind, category: instrument.category, symbol: instrument.symbol },
    request.granularity,
    {
      ...(startMs !== undefined ? { startMs } : {}),
      endMs,
      limit: limitOf(query, request.defaultLimit, request.maxLimit),
    },
  );
}

/** Futures delivery status (endpoints.md §2.2): "" for a perpetual. */
export function deliveryStatusOf(instrument: Instrument, nowMs: number): string {
  if (instrument.symbolType !== 'delivery') return '';
  const deliveryMs = Number(instrument.deliveryTime || '0');
  const startMs = Number(instrument.deliveryStartTime || '0');
  if (deliveryMs > 0 && nowMs >= deliveryMs) return 'delivery_period';
  if (startMs > 0 && nowMs >= startMs) return 'delivery_before';
  return 'delivery_normal';
}
