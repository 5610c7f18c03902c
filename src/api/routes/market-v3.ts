/**
 * Public v3 (unified) market data (endpoints.md §3): tickers, order book (`a`/`b`), candles,
 * recent trades, current funding rate, open interest, OI limits and position tiers. The
 * instrument list (/api/v3/market/instruments) is in public.ts. v3 categories only: the demo
 * product types are v2-only, as on the venue.
 */
import { isFutures, V3_CATEGORIES, type Category } from '../../domain/category.ts';
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import { openInterestOf, oiLimitOf, positionTiersOf } from '../../market/futures-hooks.ts';
import { depthOf, tickerOf } from '../../market/market-data.ts';
import { optionalString, type Fields } from '../params.ts';
import { reject, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { candleRow, v3FillRow, v3TickerRow } from '../wire/market.ts';
import {
  candleKindOf,
  candlesFor,
  granularityOf,
  instrumentOf,
  limitOf,
  publicRoute,
  requiredQuery,
  selectedInstruments,
  v3CategoryOf,
} from './market-common.ts';
import { futuresExtras, fundingRateRow, futuresView } from './market-mix.ts';

const V3_FUTURES: readonly Category[] = V3_CATEGORIES.filter(isFutures);

/** A contract named by symbol alone (current-fund-rate has no category): the first v3 line listing it. */
function contractBySymbol(services: Services, symbolText: string, category?: Category): Instrument {
  const symbol = symbolText.toUpperCase();
  const state = services.sequencer.exchange.state;
  for (const candidate of category ? [category] : V3_FUTURES) {
    const instrument = state.instruments.get(instrumentKey(candidate, symbol));
    if (instrument) return instrument;
  }
  reject('SYMBOL_NOT_FOUND', symbol);
}

export function marketV3Routes(services: Services): Route[] {
  const instrumentFor = (query: Fields) =>
    instrumentOf(services, v3CategoryOf(query), requiredQuery(query, 'symbol'));
  const candles = (maxLimit: number) => async (request: { query: Fields }) => {
    const rows = await candlesFor(services, request.query, {
      instrument: instrumentFor(request.query),
      kind: candleKindOf(request.query, 'type'),
      granularity: granularityOf(request.query, 'interval'),
      defaultLimit: 100,
      maxLimit,
    });
    return rows.map((candle) => candleRow(candle, false));
  };
  return [
    publicRoute('/api/v3/market/tickers', 'v3', 20, async (request) => {
      const category = v3CategoryOf(request.query);
      const nowMs = services.clock.now();
      const instruments = selectedInstruments(services, category, request.query);
      const tickers = await Promise.all(
        instruments.map((instrument) =>
          tickerOf(services.sequencer.exchange, services.store, instrument, nowMs),
        ),
      );
      return tickers.map((ticker) =>
        v3TickerRow(ticker, isFutures(category) ? futuresExtras(services, ticker.instrument) : null),
      );
    }),
    publicRoute('/api/v3/market/orderbook', 'v3', 20, (request) => {
      const instrument = instrumentFor(request.query);
      const depth = depthOf(services.sequencer.exchange, instrument, limitOf(request.query, 5, 200));
      return { a: depth.asks, b: depth.bids, ts: String(services.clock.now()) };
    }),
    publicRoute('/api/v3/market/candles', 'v3', 20, candles(1000)),
    publicRoute('/api/v3/market/history-candles', 'v3', 20, candles(1000)),
    publicRoute('/api/v3/market/fills', 'v3', 20, async (request) => {
      const category = v3CategoryOf(request.query);
      const symbol = optionalString(request.query, 'symbol');
      const instrument = symbol ? instrumentOf(services, category, symbol) : undefined;
      const trades = await services.store.trades({
        category,
        ...(instrument ? { symbol: instrument.symbol } : {}),
        limit: limitOf(request.query, 100, 100),
      });
      return trades.map(v3FillRow);
    }),
    publicRoute('/api/v3/market/current-fund-rate', 'v3', 20, (request) => {
      const categoryText = optionalString(request.query, 'category');
      const category = categoryText ? v3CategoryOf(request.query, V3_FUTURES) : undefined;
      const symbol = optionalString(request.query, 'symbol');
      if (!symbol) {
        if (!category) reject('PARAM_EMPTY', 'symbol');
        return selectedInstruments(services, category, {})
          .filter((instrument) => instrument.symbolType === 'perpetual')
          .map((instrument) => fundingRateRow(services, instrument));
      }
      return [fundingRateRow(services, contractBySymbol(services, symbol, category))];
    }),
    publicRoute('/api/v3/market/open-interest', 'v3', 20, (request) => {
      const category = v3CategoryOf(request.query, V3_FUTURES);
      const view = futuresView(services);
      return {
        list: selectedInstruments(services, category, request.query).map((instrument) => ({
          symbol: instrument.symbol,
          openInterest: openInterestOf(view, instrument),
        })),
        ts: String(view.nowMs),
      };
    }),
    publicRoute('/api/v3/market/oi-limit', 'v3', 10, (request) =>
      selectedInstruments(services, v3CategoryOf(request.query, V3_FUTURES), request.query).map(
        (instrument) => ({ symbol: instrument.symbol, ...oiLimitOf(instrument) }),
      ),
    ),
    publicRoute('/api/v3/market/position-tier', 'v3', 20, (request) => {
      const category = v3CategoryOf(request.query, ['MARGIN', ...V3_FUTURES]);
      // Margin borrowing tiers are not modelled: an empty list, as for a pair without tiers.
      if (category === 'MARGIN') return [];
      const instrument = instrumentOf(services, category, requiredQuery(request.query, 'symbol'));
      return positionTiersOf(instrument).map((tier) => ({
        tier: String(tier.level),
        minTierValue: tier.startValue,
        maxTierValue: tier.endValue,
        leverage: tier.leverage,
        mmr: tier.maintenanceMarginRate,
      }));
    }),
  ];
}
