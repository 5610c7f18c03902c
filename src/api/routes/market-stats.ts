/**
 * Public futures trading statistics, v2 and v3 (docs/market-data.md, "Market statistics"):
 * taker buy/sell volume, the accounts' long/short ratio, and the top traders' long/short
 * ratios by position size and by account, over the last 30 periods (`period` 5m … 1d, default
 * 5m), oldest first. Computed on request from the candle rows, the engine's open positions and
 * the closed positions' lives (src/market/market-stats.ts).
 *
 * The venue names only `symbol`: the contract is the first of USDT-M, coin-M and USDC-M that
 * lists it, unless v2's optional `productType` names another line (the demo ones included).
 * Limits as the venue's (ccxt's costs): 1 request/s per IP.
 */
import { FUTURES_CATEGORIES, parseCategory, V3_CATEGORIES, type Category } from '../../domain/category.ts';
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import { openHoldingsOf } from '../../market/futures-hooks.ts';
import {
  accountRatios,
  formatVolume,
  holdingSeries,
  statPeriodOf,
  takerVolumes,
  topAccountRatios,
  topPositionRatios,
  type Holding,
  type SideRatios,
} from '../../market/market-stats.ts';
import type { Granularity } from '../../market/granularity.ts';
import { optionalString, type Fields } from '../params.ts';
import { reject, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { publicRoute, requiredQuery } from './market-common.ts';
import { futuresView } from './market-mix.ts';

const LINES: readonly Category[] = V3_CATEGORIES.filter((category) => FUTURES_CATEGORIES.includes(category));

function contractOf(services: Services, query: Fields): Instrument {
  const symbol = requiredQuery(query, 'symbol').toUpperCase();
  const productType = optionalString(query, 'productType');
  let lines = LINES;
  if (productType !== undefined) {
    const category = parseCategory(productType, FUTURES_CATEGORIES);
    if (!category) reject('PARAM_ERROR', 'productType');
    lines = [category];
  }
  const instruments = services.sequencer.exchange.state.instruments;
  for (const category of lines) {
    const instrument = instruments.get(instrumentKey(category, symbol));
    if (instrument) return instrument;
  }
  reject('SYMBOL_NOT_FOUND', symbol);
}

function periodOf(query: Fields): Granularity {
  const period = statPeriodOf(optionalString(query, 'period'));
  if (!period) reject('PARAM_ERROR', 'period');
  return period;
}

type RatioFields = readonly [long: string, short: string, longShort: string];

/** A route answering one ratio per period, from who held what at the period's end. */
function ratioRoute(
  services: Services,
  path: string,
  dialect: 'v2-mix' | 'v3',
  ratiosOf: (holdings: readonly Holding[]) => SideRatios,
  [long, short, longShort]: RatioFields,
): Route {
  return publicRoute(path, dialect, 1, async (request) => {
    const instrument = contractOf(services, request.query);
    const period = periodOf(request.query);
    const view = futuresView(services);
    const series = await holdingSeries(
      services.store,
      instrument,
      openHoldingsOf(view, instrument),
      period,
      view.nowMs,
    );
    return series.map(({ startMs, holdings }) => {
      const ratios = ratiosOf(holdings);
      return {
        [long]: ratios.long,
        [short]: ratios.short,
        [longShort]: ratios.longShort,
        ts: String(startMs),
      };
    });
  });
}

function takerRoute(services: Services, path: string, dialect: 'v2-mix' | 'v3'): Route {
  return publicRoute(path, dialect, 1, async (request) => {
    const instrument = contractOf(services, request.query);
    const volumes = await takerVolumes(
      services.store,
      instrument,
      periodOf(request.query),
      services.clock.now(),
    );
    return volumes.map(({ startMs, buy, sell }) => ({
      buyVolume: formatVolume(buy),
      sellVolume: formatVolume(sell),
      ts: String(startMs),
    }));
  });
}

const ACCOUNT: RatioFields = ['longAccountRatio', 'shortAccountRatio', 'longShortAccountRatio'];
const POSITION: RatioFields = ['longPositionRatio', 'shortPositionRatio', 'longShortPositionRatio'];
const TOP_ACCOUNT: RatioFields = ['longRatio', 'shortRatio', 'longShortRatio'];

export function marketStatsRoutes(services: Services): Route[] {
  const v2 = '/api/v2/mix/market';
  const v3 = '/api/v3/market';
  return [
    ratioRoute(services, `${v2}/account-long-short`, 'v2-mix', accountRatios, ACCOUNT),
    ratioRoute(services, `${v2}/position-long-short`, 'v2-mix', topPositionRatios, POSITION),
    ratioRoute(services, `${v2}/long-short`, 'v2-mix', topAccountRatios, TOP_ACCOUNT),
    takerRoute(services, `${v2}/taker-buy-sell`, 'v2-mix'),
    ratioRoute(services, `${v3}/futures-account-long-short`, 'v3', accountRatios, ACCOUNT),
    ratioRoute(services, `${v3}/futures-position-long-short`, 'v3', topPositionRatios, POSITION),
    ratioRoute(services, `${v3}/futures-long-short`, 'v3', topAccountRatios, TOP_ACCOUNT),
    takerRoute(services, `${v3}/futures-active-buy-sell`, 'v3'),
  ];
}
