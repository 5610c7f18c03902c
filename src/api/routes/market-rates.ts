/**
 * Public rate history and lending terms (docs/market-data.md, "Market statistics"):
 *
 * - `history-fund-rate` (v2 and v3): the funding rates that actually settled (table
 *   `funding_rates`, one row per settlement of a perpetual), newest first. v2 pages with
 *   `pageNo`/`pageSize` (default 20, max 100); v3 with `cursor` = page number and `limit`
 *   (default 100, max 100), as the venue does. A contract without funding has none.
 * - `discount-rate`: how much of each coin's value counts as collateral (v2: classic
 *   union-margin futures; v3: the unified account) — src/market/lending.ts.
 * - `margin-loans` (v3): a coin's daily and annual borrowing rate; `limit` is "" because
 *   there is no platform-wide quota (each account's limit follows from its equity).
 */
import { FUTURES_CATEGORIES, V3_CATEGORIES } from '../../domain/category.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { borrowRatesOf, UNIFIED_DISCOUNT_RATE, unionDiscountRate } from '../../market/lending.ts';
import type { FundingRateRow } from '../../ports/store.ts';
import { optionalInteger, type Fields } from '../params.ts';
import { reject, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { instrumentOf, productTypeOf, publicRoute, requiredQuery, v3CategoryOf } from './market-common.ts';
import { listedCoins } from './market-spot.ts';

const V3_FUTURES = V3_CATEGORIES.filter((category) => FUTURES_CATEGORIES.includes(category));
const MAX_PAGE_SIZE = 100;
const MAX_PAGE = 10_000;

/** A positive page number or size from `name`, `fallback` when absent; sizes over `maximum` are cut. */
function pageNumber(query: Fields, name: string, fallback: number, maximum: number): number {
  const value = optionalInteger(query, name) ?? fallback;
  if (value < 1) reject('PARAM_ERROR', name);
  return Math.min(value, maximum);
}

async function settledRates(
  services: Services,
  instrument: Instrument,
  page: number,
  size: number,
): Promise<FundingRateRow[]> {
  if (instrument.symbolType !== 'perpetual') return [];
  return services.store.fundingRates({
    category: instrument.category,
    symbol: instrument.symbol,
    offset: (page - 1) * size,
    limit: size,
  });
}

export function marketRateRoutes(services: Services): Route[] {
  return [
    publicRoute('/api/v2/mix/market/history-fund-rate', 'v2-mix', 20, async (request) => {
      const { query } = request;
      const instrument = instrumentOf(services, productTypeOf(query), requiredQuery(query, 'symbol'));
      const size = pageNumber(query, 'pageSize', 20, MAX_PAGE_SIZE);
      const rows = await settledRates(services, instrument, pageNumber(query, 'pageNo', 1, MAX_PAGE), size);
      return rows.map((row) => ({
        symbol: row.symbol,
        fundingRate: row.fundingRate,
        fundingTime: String(row.timeMs),
      }));
    }),
    publicRoute('/api/v3/market/history-fund-rate', 'v3', 20, async (request) => {
      const { query } = request;
      const instrument = instrumentOf(
        services,
        v3CategoryOf(query, V3_FUTURES),
        requiredQuery(query, 'symbol'),
      );
      const size = pageNumber(query, 'limit', MAX_PAGE_SIZE, MAX_PAGE_SIZE);
      const rows = await settledRates(services, instrument, pageNumber(query, 'cursor', 1, MAX_PAGE), size);
      return {
        resultList: rows.map((row) => ({
          symbol: row.symbol,
          fundingRate: row.fundingRate,
          fundingRateTimestamp: String(row.timeMs),
        })),
      };
    }),
    publicRoute('/api/v2/mix/market/discount-rate', 'v2-mix', 5, () =>
      listedCoins(services)
        .filter((coin) => coin !== 'USDT')
        .map((coin) => ({
          coin,
          userLimit: '',
          totalLimit: '',
          discountRateList: [{ tier: '1', minAmount: '0', maxAmount: '', discountRate: unionDiscountRate() }],
        })),
    ),
    publicRoute('/api/v3/market/discount-rate', 'v3', 20, () =>
      listedCoins(services).map((coin) => ({
        coin,
        list: [{ tierStartValue: '0', discountRate: UNIFIED_DISCOUNT_RATE }],
      })),
    ),
    publicRoute('/api/v3/market/margin-loans', 'v3', 20, (request) => {
      const coin = requiredQuery(request.query, 'coin').toUpperCase();
      if (!listedCoins(services).includes(coin)) reject('PARAM_ERROR', 'coin');
      const rates = borrowRatesOf(coin);
      return { dailyInterest: rates.daily, annualInterest: rates.annual, limit: '' };
    }),
  ];
}
