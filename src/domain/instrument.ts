/**
 * Instrument (trading-pair specification): the venue's instrument record, field for field.
 *
 * Values are kept as the decimal strings the operator configured, exactly as served on the
 * wire; the engine derives integer steps from them once (engine/instruments/scales.ts).
 * An empty string means "not configured", as on the venue.
 */
import type { Category } from './category.ts';

export const INSTRUMENT_STATUSES = ['listed', 'online', 'limit_open', 'offline', 'restricted'] as const;
export type InstrumentStatus = (typeof INSTRUMENT_STATUSES)[number];

export interface Instrument {
  symbol: string;
  category: Category;
  baseCoin: string;
  quoteCoin: string;
  /** Margin (settlement) coins; futures only. */
  marginCoins: string[];
  buyLimitPriceRatio: string;
  sellLimitPriceRatio: string;
  feeRateUpRatio: string;
  openCostUpRatio: string;
  makerFeeRate: string;
  takerFeeRate: string;
  minOrderQty: string;
  maxOrderQty: string;
  maxMarketOrderQty: string;
  minOrderAmount: string;
  pricePrecision: string;
  quantityPrecision: string;
  quotePrecision: string;
  priceMultiplier: string;
  quantityMultiplier: string;
  /** `perpetual` or `delivery` for futures; empty for spot and margin. */
  symbolType: string;
  maxSymbolOrderNum: string;
  maxProductOrderNum: string;
  maxPositionNum: string;
  status: InstrumentStatus;
  offTime: string;
  limitOpenTime: string;
  maintainTime: string;
  deliveryTime: string;
  deliveryStartTime: string;
  deliveryPeriod: string;
  launchTime: string;
  fundInterval: string;
  minLeverage: string;
  maxLeverage: string;
  isIsolatedBaseBorrowable: string;
  isIsolatedQuotedBorrowable: string;
  warningRiskRatio: string;
  liquidationRiskRatio: string;
  maxCrossedLeverage: string;
  maxIsolatedLeverage: string;
  userMinBorrow: string;
  areaSymbol: string;
}

/** Keys made so far, per category and symbol: a key is looked up for every order, and a
 * string built anew must be hashed anew. Bounded, since symbols come from requests. */
const keys = new Map<string, Map<string, string>>();
const MAX_CACHED_KEYS = 10_000;
let cachedKeys = 0;

/** The key asked last (`${lastCategory}:${lastSymbol}`): an order asks for its instrument's key several times in a row. */
let lastCategory = '';
let lastSymbol = '';
let lastKey = ':';

export function instrumentKey(category: Category, symbol: string): string {
  if (symbol === lastSymbol && category === lastCategory) return lastKey;
  const key = keyOf(category, symbol);
  lastCategory = category;
  lastSymbol = symbol;
  lastKey = key;
  return key;
}

function keyOf(category: Category, symbol: string): string {
  let bySymbol = keys.get(category);
  if (!bySymbol) {
    bySymbol = new Map();
    keys.set(category, bySymbol);
  }
  const cached = bySymbol.get(symbol);
  if (cached !== undefined) return cached;
  const key = `${category}:${symbol}`;
  if (cachedKeys < MAX_CACHED_KEYS) {
    bySymbol.set(symbol, key);
    cachedKeys += 1;
  }
  return key;
}
