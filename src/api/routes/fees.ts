/**
 * Trading fee rates (docs/trading.md, "Fee rates"): v2 trade-rate and all-trade-rate, v3
 * fee-rate and all-fee-rate. They answer the rates the engine charges: an instrument's maker
 * and taker rates (engine/trading/settle.ts `feeRate`). bourse has no fee tiers or per-account
 * rates, so every account's rate on an instrument is the instrument's.
 */
import { FUTURES_CATEGORIES, parseCategory, V3_CATEGORIES, type Category } from '../../domain/category.ts';
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import { formatMoney } from '../../domain/money.ts';
import type { EngineState } from '../../engine/state.ts';
import { feeRate } from '../../engine/trading/settle.ts';
import { optionalString, requiredString, type Fields } from '../params.ts';
import { reject, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { signedRoutes } from './route-kit.ts';

/** A Map: the names come from requests and must never reach an object's prototype. */
const BUSINESS_CATEGORIES: ReadonlyMap<string, readonly Category[]> = new Map([
  ['spot', ['SPOT']],
  ['margin', ['MARGIN']],
  ['mix', FUTURES_CATEGORIES],
  ['contract', FUTURES_CATEGORIES],
]);

function rates(instrument: Instrument) {
  return {
    makerFeeRate: formatMoney(feeRate(instrument, 'maker')),
    takerFeeRate: formatMoney(feeRate(instrument, 'taker')),
  };
}

function symbolRates(instrument: Instrument) {
  return { symbol: instrument.symbol, ...rates(instrument) };
}

/** The categories a v2 `businessType` (spot, margin, mix) names; `business` is its older name. */
function businessCategories(query: Fields): readonly Category[] {
  const name = optionalString(query, 'businessType') ?? optionalString(query, 'business');
  if (name === undefined) reject('PARAM_EMPTY', 'businessType');
  const categories = BUSINESS_CATEGORIES.get(name.toLowerCase());
  if (!categories) reject('PARAM_ERROR', 'businessType');
  return categories;
}

/** The first listed instrument of the symbol among the categories, or SYMBOL_NOT_FOUND. */
function findInstrument(state: EngineState, categories: readonly Category[], symbol: string): Instrument {
  for (const category of categories) {
    const instrument = state.instruments.get(instrumentKey(category, symbol));
    if (instrument) return instrument;
  }
  reject('SYMBOL_NOT_FOUND', symbol);
}

function listOf(state: EngineState, categories: readonly Category[], symbol?: string) {
  return [...state.instruments.values()]
    .filter((instrument) => categories.includes(instrument.category))
    .filter((instrument) => symbol === undefined || instrument.symbol === symbol)
    .sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0))
    .map(symbolRates);
}

function v3Category(query: Fields): Category {
  const category = parseCategory(requiredString(query, 'category'), V3_CATEGORIES);
  if (!category) reject('PARAM_ERROR', 'category');
  return category;
}

export function feeRoutes(services: Services): Route[] {
  const v2 = signedRoutes({ dialect: 'v2' });
  const v3 = signedRoutes({ dialect: 'v3', accountMode: 'unified' });
  const state = () => services.sequencer.exchange.state;
  const symbolOf = (query: Fields) => requiredString(query, 'symbol').toUpperCase();
  return [
    v2('GET', '/api/v2/common/trade-rate', 10, undefined, ({ query }) => {
      const symbol = symbolOf(query);
      return rates(findInstrument(state(), businessCategories(query), symbol));
    }),
    v2('GET', '/api/v2/common/all-trade-rate', 10, undefined, ({ query }) =>
      listOf(state(), businessCategories(query)),
    ),
    v3('GET', '/api/v3/account/fee-rate', 3, undefined, ({ query }) => {
      const symbol = symbolOf(query);
      return rates(findInstrument(state(), [v3Category(query)], symbol));
    }),
    v3('GET', '/api/v3/account/all-fee-rate', 3, undefined, ({ query }) => {
      const symbol = optionalString(query, 'symbol')?.toUpperCase();
      return listOf(state(), [v3Category(query)], symbol);
    }),
  ];
}
