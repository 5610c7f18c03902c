/**
 * Public market-data rows in the venue's shapes. Every
 * field comes from the instrument, the books, the trades or the prices; a field the
 * instrument does not configure is "". Traps kept: a spot symbol row carries no `symbolType`
 * and a spot ticker no `markPrice` (ccxt tells spot from contracts by them); a margin row's
 * borrowable flags are JSON booleans; `supportMarginCoins` is an array on v2.
 */
import { parseScaled } from '../../domain/decimal.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { MONEY_SCALE } from '../../domain/money.ts';
import type { TradeRow } from '../../ports/store.ts';
import type { Candle } from '../../market/candles.ts';
import { scaledText, type TickerData } from '../../market/market-data.ts';

const SPOT_STATUS: Record<Instrument['status'], string> = {
  listed: 'gray',
  online: 'online',
  limit_open: 'halt',
  offline: 'offline',
  restricted: 'halt',
};

const CONTRACT_STATUS: Record<Instrument['status'], string> = {
  listed: 'listed',
  online: 'normal',
  limit_open: 'limit_open',
  offline: 'off',
  restricted: 'restrictedAPI',
};

export function coinRow(coin: string, coinId: number): Record<string, unknown> {
  return {
    coinId: String(coinId),
    coin,
    transfer: 'true',
    chains: [
      {
        chain: coin,
        needTag: 'false',
        withdrawable: 'true',
        rechargeable: 'true',
        withdrawFee: '0',
        extraWithdrawFee: '0',
        depositConfirm: '1',
        withdrawConfirm: '1',
        minDepositAmount: '0',
        minWithdrawAmount: '0',
        browserUrl: '',
        contractAddress: '',
        withdrawStep: '0',
        withdrawMinScale: String(MONEY_SCALE),
        congestion: 'normal',
      },
    ],
    areaCoin: 'no',
  };
}

export function spotSymbolRow(instrument: Instrument): Record<string, string> {
  return {
    symbol: instrument.symbol,
    baseCoin: instrument.baseCoin,
    quoteCoin: instrument.quoteCoin,
    minTradeAmount: instrument.minOrderQty,
    maxTradeAmount: instrument.maxOrderQty,
    takerFeeRate: instrument.takerFeeRate,
    makerFeeRate: instrument.makerFeeRate,
    pricePrecision: instrument.pricePrecision,
    quantityPrecision: instrument.quantityPrecision,
    quotePrecision: instrument.quotePrecision,
    status: SPOT_STATUS[instrument.status],
    minTradeUSDT: instrument.minOrderAmount,
    buyLimitPriceRatio: instrument.buyLimitPriceRatio,
    sellLimitPriceRatio: instrument.sellLimitPriceRatio,
    orderQuantity: instrument.maxSymbolOrderNum,
    areaSymbol: instrument.areaSymbol || 'no',
    maxLimitOrderValue: '',
    maxMarketOrderValue: '',
  };
}

const yes = (text: string) => text.toLowerCase() === 'yes';

export function marginCurrencyRow(instrument: Instrument): Record<string, unknown> {
  const base = yes(instrument.isIsolatedBaseBorrowable);
  const quote = yes(instrument.isIsolatedQuotedBorrowable);
  return {
    symbol: instrument.symbol,
    baseCoin: instrument.baseCoin,
    quoteCoin: instrument.quoteCoin,
    maxCrossedLeverage: instrument.maxCrossedLeverage,
    maxIsolatedLeverage: instrument.maxIsolatedLeverage,
    warningRiskRatio: instrument.warningRiskRatio,
    liquidationRiskRatio: instrument.liquidationRiskRatio,
    minTradeAmount: instrument.minOrderQty,
    maxTradeAmount: instrument.maxOrderQty,
    takerFeeRate: instrument.takerFeeRate,
    makerFeeRate: instrument.makerFeeRate,
    pricePrecision: instrument.pricePrecision,
    quantityPrecision: instrument.quantityPrecision,
    minTradeUSDT: instrument.minOrderAmount,
    isBorrowable: base || quote,
    userMinBorrow: instrument.userMinBorrow,
    status: instrument.status === 'online' ? '1' : '0',
    isIsolatedBaseBorrowable: base,
    isIsolatedQuoteBorrowable: quote,
    isCrossBorrowable: base || quote,
  };
}

/** priceMultiplier in units of the last price decimal ("0.5" at 1 place → "5"). */
function priceEndStep(instrument: Instrument): string {
  const places = Number(instrument.pricePrecision || '0');
  const step = instrument.priceMultiplier ? parseScaled(instrument.priceMultiplier, places) : 1n;
  return String(step ?? 1n);
}

export function contractRow(instrument: Instrument): Record<string, unknown> {
  return {
    symbol: instrument.symbol,
    baseCoin: instrument.baseCoin,
    quoteCoin: instrument.quoteCoin,
    buyLimitPriceRatio: instrument.buyLimitPriceRatio,
    sellLimitPriceRatio: instrument.sellLimitPriceRatio,
    feeRateUpRatio: instrument.feeRateUpRatio,
    makerFeeRate: instrument.makerFeeRate,
    takerFeeRate: instrument.takerFeeRate,
    openCostUpRatio: instrument.openCostUpRatio,
    supportMarginCoins: [...instrument.marginCoins],
    minTradeNum: instrument.minOrderQty,
    priceEndStep: priceEndStep(instrument),
    volumePlace: instrument.quantityPrecision,
    pricePlace: instrument.pricePrecision,
    sizeMultiplier: instrument.quantityMultiplier,
    symbolType: instrument.symbolType,
    minTradeUSDT: instrument.minOrderAmount,
    maxSymbolOrderNum: instrument.maxSymbolOrderNum,
    maxProductOrderNum: instrument.maxProductOrderNum,
    maxPositionNum: instrument.maxPositionNum,
    symbolStatus: CONTRACT_STATUS[instrument.status],
    offTime: instrument.offTime,
    limitOpenTime: instrument.limitOpenTime,
    deliveryTime: instrument.deliveryTime,
    deliveryStartTime: instrument.deliveryStartTime,
    deliveryPeriod: instrument.deliveryPeriod,
    launchTime: instrument.launchTime,
    fundInterval: instrument.fundInterval,
    minLever: instrument.minLeverage,
    maxLever: instrument.maxLeverage,
    posLimit: '',
    maintainTime: instrument.maintainTime,
    maxMarketOrderQty: instrument.maxMarketOrderQty,
    maxOrderQty: instrument.maxOrderQty,
    isRwa: 'NO',
    openTime: instrument.launchTime,
  };
}

/** What a futures ticker adds to the common data (futures-hooks.ts supplies it). */
export interface FuturesTickerExtras {
  indexPrice: string;
  markPrice: string;
  fundingRate: string;
  openInterest: string;
  deliveryStatus: string;
}

export function v2SpotTickerRow(ticker: TickerData): Record<string, string> {
  return {
    symbol: ticker.instrument.symbol,
    high24h: ticker.high24h,
    open: ticker.open24h,
    low24h: ticker.low24h,
    lastPr: ticker.last,
    quoteVolume: ticker.quoteVolume,
    baseVolume: ticker.baseVolume,
    usdtVolume: ticker.quoteVolume,
    bidPr: ticker.bidPrice,
    askPr: ticker.askPrice,
    bidSz: ticker.bidSize,
    askSz: ticker.askSize,
    openUtc: ticker.openUtc,
    ts: String(ticker.timeMs),
    changeUtc24h: ticker.changeUtc24h,
    change24h: ticker.change24h,
  };
}

export function v2MixTickerRow(ticker: TickerData, extras: FuturesTickerExtras): Record<string, unknown> {
  const { instrument } = ticker;
  const delivery = instrument.symbolType === 'delivery';
  return {
    symbol: instrument.symbol,
    lastPr: ticker.last,
    askPr: ticker.askPrice,
    bidPr: ticker.bidPrice,
    bidSz: ticker.bidSize,
    askSz: ticker.askSize,
    high24h: ticker.high24h,
    low24h: ticker.low24h,
    ts: String(ticker.timeMs),
    change24h: ticker.change24h,
    baseVolume: ticker.baseVolume,
    quoteVolume: ticker.quoteVolume,
    usdtVolume: ticker.quoteVolume,
    openUtc: ticker.openUtc,
    changeUtc24h: ticker.changeUtc24h,
    indexPrice: extras.indexPrice,
    fundingRate: extras.fundingRate,
    holdingAmount: extras.openInterest,
    deliveryStartTime: delivery ? instrument.deliveryStartTime : null,
    deliveryTime: delivery ? instrument.deliveryTime : null,
    deliveryStatus: extras.deliveryStatus,
    open24h: ticker.open24h,
    markPrice: extras.markPrice,
  };
}

export function v3TickerRow(ticker: TickerData, extras: FuturesTickerExtras | null): Record<string, string> {
  const { instrument } = ticker;
  const row: Record<string, string> = {
    category: instrument.category,
    symbol: instrument.symbol,
    ts: String(ticker.timeMs),
    lastPrice: ticker.last,
    openPrice24h: ticker.open24h,
    highPrice24h: ticker.high24h,
    lowPrice24h: ticker.low24h,
    ask1Price: ticker.askPrice,
    bid1Price: ticker.bidPrice,
    bid1Size: ticker.bidSize,
    ask1Size: ticker.askSize,
    price24hPcnt: ticker.change24h,
    volume24h: ticker.baseVolume,
    turnover24h: ticker.quoteVolume,
  };
  if (!extras) return row;
  const delivery = instrument.symbolType === 'delivery';
  return {
    ...row,
    indexPrice: extras.indexPrice,
    markPrice: extras.markPrice,
    fundingRate: extras.fundingRate,
    openInterest: extras.openInterest,
    deliveryStartTime: delivery ? instrument.deliveryStartTime : '',
    deliveryTime: delivery ? instrument.deliveryTime : '',
    deliveryStatus: extras.deliveryStatus,
  };
}

export function v2TradeRow(trade: TradeRow): Record<string, string> {
  return {
    symbol: trade.symbol,
    tradeId: trade.tradeId,
    side: trade.side,
    price: trade.price,
    size: trade.quantity,
    ts: String(trade.timeMs),
  };
}

export function v3FillRow(trade: TradeRow): Record<string, string> {
  return {
    execId: trade.tradeId,
    price: trade.price,
    size: trade.quantity,
    side: trade.side,
    ts: String(trade.timeMs),
    isRPI: 'no',
  };
}

/** [ts, open, high, low, close, baseVolume, quoteVolume] (+ usdtVolume for v2 spot). */
export function candleRow(candle: Candle, withUsdtVolume: boolean): string[] {
  const row = [
    String(candle.startMs),
    scaledText(candle.open),
    scaledText(candle.high),
    scaledText(candle.low),
    scaledText(candle.close),
    scaledText(candle.baseVolume),
    scaledText(candle.quoteVolume),
  ];
  if (withUsdtVolume) row.push(scaledText(candle.quoteVolume));
  return row;
}
