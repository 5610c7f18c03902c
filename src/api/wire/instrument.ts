/**
 * Instrument rows as the venue serves them on v3 /market/instruments: the common fields for
 * every category, plus futures, margin or spot fields. Futures rows carry both `type` (which
 * ccxt reads) and `symbolType` (the venue's name).
 */
import { isFutures } from '../../domain/category.ts';
import type { Instrument } from '../../domain/instrument.ts';

export function instrumentRow(instrument: Instrument): Record<string, string> {
  const row: Record<string, string> = {
    symbol: instrument.symbol,
    category: instrument.category,
    baseCoin: instrument.baseCoin,
    quoteCoin: instrument.quoteCoin,
    isRwa: 'NO',
    buyLimitPriceRatio: instrument.buyLimitPriceRatio,
    sellLimitPriceRatio: instrument.sellLimitPriceRatio,
    feeRateUpRatio: instrument.feeRateUpRatio,
    openCostUpRatio: instrument.openCostUpRatio,
    makerFeeRate: instrument.makerFeeRate,
    takerFeeRate: instrument.takerFeeRate,
    minOrderQty: instrument.minOrderQty,
    maxOrderQty: instrument.maxOrderQty,
    maxMarketOrderQty: instrument.maxMarketOrderQty,
    minOrderAmount: instrument.minOrderAmount,
    pricePrecision: instrument.pricePrecision,
    quantityPrecision: instrument.quantityPrecision,
    quotePrecision: instrument.quotePrecision,
    priceMultiplier: instrument.priceMultiplier,
    quantityMultiplier: instrument.quantityMultiplier,
    maxSymbolOrderNum: instrument.maxSymbolOrderNum,
    maxProductOrderNum: instrument.maxProductOrderNum,
    maxPositionNum: instrument.maxPositionNum,
    status: instrument.status,
    offTime: instrument.offTime,
    limitOpenTime: instrument.limitOpenTime,
    maintainTime: instrument.maintainTime,
  };
  if (isFutures(instrument.category)) {
    Object.assign(row, {
      type: instrument.symbolType,
      symbolType: instrument.symbolType,
      deliveryTime: instrument.deliveryTime,
      deliveryStartTime: instrument.deliveryStartTime,
      deliveryPeriod: instrument.deliveryPeriod,
      launchTime: instrument.launchTime,
      fundInterval: instrument.fundInterval,
      minLeverage: instrument.minLeverage,
      maxLeverage: instrument.maxLeverage,
      supportMarginCoins: instrument.marginCoins.join(','),
    });
  } else if (instrument.category === 'MARGIN') {
    Object.assign(row, {
      isIsolatedBaseBorrowable: instrument.isIsolatedBaseBorrowable,
      isIsolatedQuotedBorrowable: instrument.isIsolatedQuotedBorrowable,
      warningRiskRatio: instrument.warningRiskRatio,
      liquidationRiskRatio: instrument.liquidationRiskRatio,
      maxCrossedLeverage: instrument.maxCrossedLeverage,
      maxIsolatedLeverage: instrument.maxIsolatedLeverage,
      userMinBorrow: instrument.userMinBorrow,
    });
  } else {
    row.areaSymbol = instrument.areaSymbol;
  }
  return row;
}
