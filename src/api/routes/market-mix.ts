/**
 * Public v2 futures (mix) market data (endpoints.md §2): contracts, tickers, merged depth,
 * candles (market, mark, index; recent and history), trades, symbol price, funding rate and
 * time, open interest, position tiers and OI limits. Every product type is served, the demo
 * ones (SUSDT-, SCOIN-, SUSDC-FUTURES) like the others. Mark price, funding, open interest,
 * tiers and limits come from market/futures-hooks.ts.
 */
import type { Instrument } from '../../domain/instrument.ts';
import {
  fundingIntervalHours,
  fundingRateBounds,
  fundingRateOf,
  indexPriceOf,
  markPriceOf,
  nextFundingTimeOf,
  openInterestOf,
  positionTiersOf,
  type FuturesView,
} from '../../market/futures-hooks.ts';
import { lastPriceText, tickerOf } from '../../market/market-data.ts';
import type { Fields } from '../params.ts';
import type { Route } from '../request.ts';
import type { Services } from '../services.ts';
import {
  candleRow,
  contractRow,
  v2MixTickerRow,
  v2TradeRow,
  type FuturesTickerExtras,
} from '../wire/market.ts';
import {
  candleKindOf,
  candlesFor,
  deliveryStatusOf,
  granularityOf,
  instrumentOf,
  productTypeOf,
  publicRoute,
  requiredQuery,
  selectedInstruments,
} from './market-common.ts';
import { mergedDepth, recentTrades } from './market-spot.ts';

export function futuresView(services: Services): FuturesView {
  const exchange = services.sequencer.exchange;
  return { state: exchange.state, books: exchange.books, nowMs: services.clock.now() };
}

export function futuresExtras(services: Services, instrument: Instrument): FuturesTickerExtras {
  const view = futuresView(services);
  return {
    indexPrice: indexPriceOf(view, instrument),
    markPrice: markPriceOf(view, instrument),
    fundingRate: fundingRateOf(view, instrument),
    openInterest: openInterestOf(view, instrument),
    deliveryStatus: deliveryStatusOf(instrument, view.nowMs),
  };
}

export function fundingRateRow(services: Services, instrument: Instrument): Record<string, string> {
  const view = futuresView(services);
  const bounds = fundingRateBounds(instrument);
  return {
    symbol: instrument.symbol,
    fundingRate: fundingRateOf(view, instrument),
    fundingRateInterval: fundingIntervalHours(instrument),
    nextUpdate: String(nextFundingTimeOf(view, instrument)),
    minFundingRate: bounds.min,
    maxFundingRate: bounds.max,
  };
}

export function marketMixRoutes(services: Services): Route[] {
  const contractOf = (query: Fields) =>
    instrumentOf(services, productTypeOf(query), requiredQuery(query, 'symbol'));
  const candles =
    (kind: 'market' | 'index' | 'query', maxLimit: number) => async (request: { query: Fields }) => {
      const rows = await candlesFor(services, request.query, {
        instrument: contractOf(request.query),
        kind: kind === 'query' ? candleKindOf(request.query, 'kLineType') : kind,
        granularity: granularityOf(request.query, 'granularity'),
        defaultLimit: 100,
        maxLimit,
      });
      return rows.map((candle) => candleRow(candle, false));
    };
  const tickers = async (instruments: Instrument[]) => {
    const nowMs = services.clock.now();
    const data = await Promise.all(
      instruments.map((instrument) =>
        tickerOf(services.sequencer.exchange, services.store, instrument, nowMs),
      ),
    );
    return data.map((ticker) => v2MixTickerRow(ticker, futuresExtras(services, ticker.instrument)));
  };
  return [
    publicRoute('/api/v2/mix/market/contracts', 'v2-mix', 20, (request) =>
      selectedInstruments(services, productTypeOf(request.query), request.query).map(contractRow),
    ),
    publicRoute('/api/v2/mix/market/ticker', 'v2-mix', 20, (request) => tickers([contractOf(request.query)])),
    publicRoute('/api/v2/mix/market/tickers', 'v2-mix', 20, (request) =>
      tickers(selectedInstruments(services, productTypeOf(request.query), {})),
    ),
    publicRoute('/api/v2/mix/market/merge-depth', 'v2-mix', 20, (request) =>
      mergedDepth(services, contractOf(request.query), request.query),
    ),
    publicRoute('/api/v2/mix/market/candles', 'v2-mix', 20, candles('query', 1000)),
    publicRoute('/api/v2/mix/market/history-candles', 'v2-mix', 20, candles('market', 200)),
    publicRoute('/api/v2/mix/market/history-mark-candles', 'v2-mix', 20, candles('index', 200)),
    publicRoute('/api/v2/mix/market/history-index-candles', 'v2-mix', 20, candles('index', 200)),
    publicRoute('/api/v2/mix/market/fills', 'v2-mix', 20, async (request) => {
      const trades = await recentTrades(
        services,
        contractOf(request.query),
        request.query,
        false,
        [100, 100],
      );
      return trades.map(v2TradeRow);
    }),
    publicRoute('/api/v2/mix/market/fills-history', 'v2-mix', 10, async (request) => {
      const trades = await recentTrades(
        services,
        contractOf(request.query),
        request.query,
        true,
        [500, 1000],
      );
      return trades.map(v2TradeRow);
    }),
    publicRoute('/api/v2/mix/market/symbol-price', 'v2-mix', 20, (request) => {
      const instrument = contractOf(request.query);
      const view = futuresView(services);
      return [
        {
          symbol: instrument.symbol,
          price: lastPriceText(services.sequencer.exchange, instrument),
          indexPrice: indexPriceOf(view, instrument),
          markPrice: markPriceOf(view, instrument),
          ts: String(view.nowMs),
        },
      ];
    }),
    publicRoute('/api/v2/mix/market/current-fund-rate', 'v2-mix', 20, (request) =>
      selectedInstruments(services, productTypeOf(request.query), request.query).map((instrument) =>
        fundingRateRow(services, instrument),
      ),
    ),
    publicRoute('/api/v2/mix/market/funding-time', 'v2-mix', 20, (request) => {
      const instrument = contractOf(request.query);
      return [
        {
          symbol: instrument.symbol,
          nextFundingTime: String(nextFundingTimeOf(futuresView(services), instrument)),
          ratePeriod: fundingIntervalHours(instrument),
        },
      ];
    }),
    publicRoute('/api/v2/mix/market/open-interest', 'v2-mix', 20, (request) => {
      const instrument = contractOf(request.query);
      const view = futuresView(services);
      return {
        openInterestList: [{ symbol: instrument.symbol, size: openInterestOf(view, instrument) }],
        ts: String(view.nowMs),
      };
    }),
    publicRoute('/api/v2/mix/market/query-position-lever', 'v2-mix', 10, (request) => {
      const instrument = contractOf(request.query);
      return positionTiersOf(instrument).map((tier) => ({
        symbol: instrument.symbol,
        level: String(tier.level),
        startUnit: tier.startValue,
        endUnit: tier.endValue,
        leverage: tier.leverage,
        keepMarginRate: tier.maintenanceMarginRate,
      }));
    }),
  ];
}
