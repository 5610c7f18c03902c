/**
 * Public v2 spot and margin market data (endpoints.md §1): coins, symbols, tickers, order
 * book (plain and merged), candles (recent and history), recent and historic trades, and the
 * margin currencies list. Everything is computed from the instruments, books and trades.
 */
import type { Instrument } from '../../domain/instrument.ts';
import { depthOf, tickerOf } from '../../market/market-data.ts';
import { optionalString, type Fields } from '../params.ts';
import { reject, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import {
  candleRow,
  coinRow,
  marginCurrencyRow,
  spotSymbolRow,
  v2SpotTickerRow,
  v2TradeRow,
} from '../wire/market.ts';
import {
  candlesFor,
  granularityOf,
  instrumentOf,
  instrumentsOf,
  limitOf,
  publicRoute,
  requiredQuery,
  selectedInstruments,
} from './market-common.ts';
import { idCursor, timeWindow, DAY_MS } from './query-window.ts';

/** Every coin an instrument lists, numbered in order of first listing (stable across restarts). */
export function listedCoins(services: Services): string[] {
  const coins = new Set<string>();
  for (const instrument of services.sequencer.exchange.state.instruments.values()) {
    coins.add(instrument.baseCoin);
    coins.add(instrument.quoteCoin);
    for (const coin of instrument.marginCoins) coins.add(coin);
  }
  return [...coins];
}

/** `stepN` / `scaleN` → a merge of 10^N ticks. */
export function mergeTicksOf(query: Fields, name: string, prefix: string, maxStep: number): number {
  const text = optionalString(query, name)?.toLowerCase() ?? `${prefix}0`;
  const match = new RegExp(`^${prefix}(\\d)$`).exec(text);
  const step = match ? Number(match[1]) : -1;
  if (step < 0 || step > maxStep) reject('PARAM_ERROR', name);
  return 10 ** step;
}

/** Merged-depth `limit`: 1, 5, 15, 50, max (150), or any count up to 150. */
export function mergeLimitOf(query: Fields): number {
  const text = optionalString(query, 'limit');
  if (text === undefined) return 100;
  if (text.toLowerCase() === 'max') return 150;
  return limitOf(query, 100, 150);
}

export function mergedDepth(services: Services, instrument: Instrument, query: Fields) {
  const mergeTicks = mergeTicksOf(query, 'precision', 'scale', 3);
  const depth = depthOf(services.sequencer.exchange, instrument, mergeLimitOf(query), mergeTicks);
  const tick = instrument.priceMultiplier || (10 ** -Number(instrument.pricePrecision || '0')).toString();
  const places = Math.max(0, Number(instrument.pricePrecision || '0') - Math.log10(mergeTicks));
  return {
    ...depth,
    ts: String(services.clock.now()),
    scale: (Number(tick) * mergeTicks).toFixed(places),
    precision: `scale${Math.log10(mergeTicks)}`,
    isMaxPrecision: mergeTicks === 1000 ? 'YES' : 'NO',
  };
}

export async function recentTrades(
  services: Services,
  instrument: Instrument,
  query: Fields,
  history: boolean,
  limits: [fallback: number, maximum: number],
) {
  const base = { category: instrument.category, symbol: instrument.symbol, limit: limitOf(query, ...limits) };
  if (!history) return services.store.trades(base);
  const idLessThan = idCursor(query, 'idLessThan');
  const window =
    query.startTime !== undefined || query.endTime !== undefined
      ? timeWindow(query, services.clock.now(), 90 * DAY_MS, 7 * DAY_MS)
      : {};
  return services.store.trades({ ...base, ...window, ...(idLessThan ? { idLessThan } : {}) });
}

export function marketSpotRoutes(services: Services): Route[] {
  const spotOf = (query: Fields) => instrumentOf(services, 'SPOT', requiredQuery(query, 'symbol'));
  return [
    publicRoute('/api/v2/spot/public/coins', 'v2-spot', 3, (request) => {
      const coin = optionalString(request.query, 'coin')?.toUpperCase();
      const coins = listedCoins(services);
      const rows = coins.map((name, index) => coinRow(name, index + 1));
      if (!coin) return rows;
      const found = rows.filter((row) => row.coin === coin);
      if (found.length === 0) reject('COIN_NOT_FOUND', coin);
      return found;
    }),
    publicRoute('/api/v2/spot/public/symbols', 'v2-spot', 20, (request) =>
      selectedInstruments(services, 'SPOT', request.query).map(spotSymbolRow),
    ),
    publicRoute('/api/v2/margin/currencies', 'v2', 10, () =>
      instrumentsOf(services, 'MARGIN').map(marginCurrencyRow),
    ),
    publicRoute('/api/v2/spot/market/tickers', 'v2-spot', 20, async (request) => {
      const nowMs = services.clock.now();
      const instruments = selectedInstruments(services, 'SPOT', request.query);
      const tickers = await Promise.all(
        instruments.map((instrument) =>
          tickerOf(services.sequencer.exchange, services.store, instrument, nowMs),
        ),
      );
      return tickers.map(v2SpotTickerRow);
    }),
    publicRoute('/api/v2/spot/market/orderbook', 'v2-spot', 20, (request) => {
      const instrument = spotOf(request.query);
      const mergeTicks = mergeTicksOf(request.query, 'type', 'step', 5);
      const depth = depthOf(
        services.sequencer.exchange,
        instrument,
        limitOf(request.query, 150, 150),
        mergeTicks,
      );
      return { ...depth, ts: String(services.clock.now()) };
    }),
    publicRoute('/api/v2/spot/market/merge-depth', 'v2-spot', 20, (request) =>
      mergedDepth(services, spotOf(request.query), request.query),
    ),
    publicRoute('/api/v2/spot/market/candles', 'v2-spot', 20, async (request) => {
      const candles = await candlesFor(services, request.query, {
        instrument: spotOf(request.query),
        kind: 'market',
        granularity: granularityOf(request.query, 'granularity'),
        defaultLimit: 100,
        maxLimit: 1000,
      });
      return candles.map((candle) => candleRow(candle, true));
    }),
    publicRoute('/api/v2/spot/market/history-candles', 'v2-spot', 20, async (request) => {
      const candles = await candlesFor(services, request.query, {
        instrument: spotOf(request.query),
        kind: 'market',
        granularity: granularityOf(request.query, 'granularity'),
        defaultLimit: 100,
        maxLimit: 200,
        endTimeRequired: true,
      });
      return candles.map((candle) => candleRow(candle, true));
    }),
    publicRoute('/api/v2/spot/market/fills', 'v2-spot', 10, async (request) => {
      const trades = await recentTrades(services, spotOf(request.query), request.query, false, [100, 500]);
      return trades.map(v2TradeRow);
    }),
    publicRoute('/api/v2/spot/market/fills-history', 'v2-spot', 10, async (request) => {
      const trades = await recentTrades(services, spotOf(request.query), request.query, true, [500, 1000]);
      return trades.map(v2TradeRow);
    }),
  ];
}
