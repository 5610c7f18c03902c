/**
 * The default catalogue: what a fresh server lists. Figures follow the venue's live rows
 * (the venue's published values); where the venue publishes none, the choice is
 * noted in docs/instruments.md. The operator edits all of it through /admin/v1/instruments.
 */
import { isInverse, type Category } from '../../domain/category.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { nameTable } from '../../domain/name-table.ts';

function blank(category: Category, symbol: string, baseCoin: string, quoteCoin: string): Instrument {
  return {
    symbol,
    category,
    baseCoin,
    quoteCoin,
    marginCoins: [],
    buyLimitPriceRatio: '',
    sellLimitPriceRatio: '',
    feeRateUpRatio: '',
    openCostUpRatio: '',
    makerFeeRate: '',
    takerFeeRate: '',
    minOrderQty: '',
    maxOrderQty: '',
    maxMarketOrderQty: '',
    minOrderAmount: '',
    pricePrecision: '',
    quantityPrecision: '',
    quotePrecision: '',
    priceMultiplier: '',
    quantityMultiplier: '',
    symbolType: '',
    maxSymbolOrderNum: '',
    maxProductOrderNum: '',
    maxPositionNum: '',
    status: 'online',
    offTime: '',
    limitOpenTime: '',
    maintainTime: '',
    deliveryTime: '',
    deliveryStartTime: '',
    deliveryPeriod: '',
    launchTime: '',
    fundInterval: '',
    minLeverage: '',
    maxLeverage: '',
    isIsolatedBaseBorrowable: '',
    isIsolatedQuotedBorrowable: '',
    warningRiskRatio: '',
    liquidationRiskRatio: '',
    maxCrossedLeverage: '',
    maxIsolatedLeverage: '',
    userMinBorrow: '',
    areaSymbol: '',
  };
}

interface SpotSpec {
  symbol: string;
  base: string;
  quote: string;
  pricePrecision: number;
  quantityPrecision: number;
  quotePrecision: number;
}

function spot(spec: SpotSpec): Instrument {
  return {
    ...blank('SPOT', spec.symbol, spec.base, spec.quote),
    buyLimitPriceRatio: '0.02',
    sellLimitPriceRatio: '0.02',
    feeRateUpRatio: '0',
    makerFeeRate: '0.001',
    takerFeeRate: '0.001',
    minOrderQty: (10 ** -spec.quantityPrecision).toFixed(spec.quantityPrecision),
    maxOrderQty: '900000000',
    maxMarketOrderQty: '900000000',
    minOrderAmount: '1',
    pricePrecision: String(spec.pricePrecision),
    quantityPrecision: String(spec.quantityPrecision),
    quotePrecision: String(spec.quotePrecision),
    maxSymbolOrderNum: '200',
    maxProductOrderNum: '400',
    maxPositionNum: '200',
    areaSymbol: 'no',
  };
}

function margin(spec: SpotSpec): Instrument {
  return {
    ...spot(spec),
    category: 'MARGIN',
    areaSymbol: '',
    isIsolatedBaseBorrowable: 'YES',
    isIsolatedQuotedBorrowable: 'YES',
    warningRiskRatio: '0.8',
    liquidationRiskRatio: '1',
    maxCrossedLeverage: '3',
    maxIsolatedLeverage: '10',
    userMinBorrow: '0.00000001',
  };
}

interface FuturesSpec {
  category: Category;
  symbol: string;
  base: string;
  quote: string;
  marginCoins: string[];
  pricePrecision: number;
  priceMultiplier: string;
  quantityPrecision: number;
  quantityMultiplier: string;
  maxLeverage: number;
  maxMarketOrderQty: string;
  maxOrderQty: string;
}

function perpetual(spec: FuturesSpec): Instrument {
  return {
    ...blank(spec.category, spec.symbol, spec.base, spec.quote),
    marginCoins: spec.marginCoins,
    buyLimitPriceRatio: '0.05',
    sellLimitPriceRatio: '0.05',
    feeRateUpRatio: '0.005',
    openCostUpRatio: '0.01',
    makerFeeRate: '0.0002',
    takerFeeRate: '0.0006',
    minOrderQty: spec.quantityMultiplier,
    maxOrderQty: spec.maxOrderQty,
    maxMarketOrderQty: spec.maxMarketOrderQty,
    minOrderAmount: isInverse(spec.category) ? '' : '5',
    pricePrecision: String(spec.pricePrecision),
    quantityPrecision: String(spec.quantityPrecision),
    priceMultiplier: spec.priceMultiplier,
    quantityMultiplier: spec.quantityMultiplier,
    symbolType: 'perpetual',
    maxSymbolOrderNum: '200',
    maxProductOrderNum: '400',
    maxPositionNum: '200',
    offTime: '-1',
    limitOpenTime: '-1',
    launchTime: '0',
    fundInterval: '8',
    minLeverage: '1',
    maxLeverage: String(spec.maxLeverage),
  };
}

/** Last Friday of the quarter's month, 08:00 UTC. */
function delivery(spec: FuturesSpec, deliveryTimeMs: number, period: string): Instrument {
  return {
    ...perpetual(spec),
    symbolType: 'delivery',
    deliveryTime: String(deliveryTimeMs),
    deliveryStartTime: String(deliveryTimeMs - 10 * 60 * 1000),
    deliveryPeriod: period,
    fundInterval: '',
    maxLeverage: '50',
  };
}

const BTC_SPOT = { base: 'BTC', quote: 'USDT', pricePrecision: 2, quantityPrecision: 6, quotePrecision: 8 };
const ETH_SPOT = { base: 'ETH', quote: 'USDT', pricePrecision: 2, quantityPrecision: 4, quotePrecision: 6 };

function linear(category: Category, symbol: string, base: string, quote: string, marginCoin: string) {
  const isBtc = base.endsWith('BTC');
  return perpetual({
    category,
    symbol,
    base,
    quote,
    marginCoins: [marginCoin],
    pricePrecision: isBtc ? 1 : 2,
    priceMultiplier: isBtc ? '0.1' : '0.01',
    quantityPrecision: isBtc ? 4 : 2,
    quantityMultiplier: isBtc ? '0.0001' : '0.01',
    maxLeverage: isBtc ? 150 : 100,
    maxMarketOrderQty: isBtc ? '220' : '1900',
    maxOrderQty: isBtc ? '1200' : '9900',
  });
}

/**
 * Coin-margined (inverse) contracts: quantity in USD contracts of 1 USD (the venue's v3
 * convention, used on v2 too — see docs/futures.md), margin and PnL in the base coin.
 */
function inverse(category: Category, symbol: string, base: string, marginCoins: string[]): FuturesSpec {
  return {
    category,
    symbol,
    base,
    quote: 'USD',
    marginCoins,
    pricePrecision: 1,
    priceMultiplier: '0.5',
    quantityPrecision: 0,
    quantityMultiplier: '1',
    maxLeverage: 125,
    maxMarketOrderQty: '1000000',
    maxOrderQty: '10000000',
  };
}

const DECEMBER_2026_DELIVERY_MS = Date.UTC(2026, 11, 25, 8, 0, 0);

export function defaultCatalogue(): Instrument[] {
  return [
    spot({ symbol: 'BTCUSDT', ...BTC_SPOT }),
    spot({ symbol: 'ETHUSDT', ...ETH_SPOT }),
    margin({ symbol: 'BTCUSDT', ...BTC_SPOT }),
    margin({ symbol: 'ETHUSDT', ...ETH_SPOT }),
    linear('USDT-FUTURES', 'BTCUSDT', 'BTC', 'USDT', 'USDT'),
    linear('USDT-FUTURES', 'ETHUSDT', 'ETH', 'USDT', 'USDT'),
    linear('USDC-FUTURES', 'BTCPERP', 'BTC', 'USDC', 'USDC'),
    linear('USDC-FUTURES', 'ETHPERP', 'ETH', 'USDC', 'USDC'),
    perpetual(inverse('COIN-FUTURES', 'BTCUSD', 'BTC', ['BTC'])),
    perpetual({
      ...inverse('COIN-FUTURES', 'ETHUSD', 'ETH', ['ETH']),
      priceMultiplier: '0.01',
      pricePrecision: 2,
    }),
    delivery(inverse('COIN-FUTURES', 'BTCUSDZ26', 'BTC', ['BTC']), DECEMBER_2026_DELIVERY_MS, 'this_quarter'),
    linear('SUSDT-FUTURES', 'SBTCSUSDT', 'SBTC', 'SUSDT', 'SUSDT'),
    linear('SUSDT-FUTURES', 'SETHSUSDT', 'SETH', 'SUSDT', 'SUSDT'),
    perpetual(inverse('SCOIN-FUTURES', 'SBTCSUSD', 'SBTC', ['SBTC'])),
    linear('SUSDC-FUTURES', 'SBTCSPERP', 'SBTC', 'SUSDC', 'SUSDC'),
  ];
}

/** Index prices a fresh server starts from, so that price bands and margin work at once. */
export const DEFAULT_INDEX_PRICES: Readonly<Record<string, string>> = nameTable({
  BTC: '60000',
  ETH: '3000',
  SBTC: '60000',
  SETH: '3000',
});
