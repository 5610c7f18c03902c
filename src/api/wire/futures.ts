/**
 * Futures records in the venue's shapes: v2 mix orders (`state` in detail, `status` in lists,
 * single-l `canceled`, v2 side semantics in hedge mode), mix fills (feeDetail an array), v2
 * and v3 positions, mix account rows and mix bills, with the venue's inconsistencies between
 * them reproduced.
 */
import type { FillView } from '../../domain/events.ts';
import type { OrderView } from '../../domain/order-view.ts';
import type { BillRow } from '../../ports/store.ts';
import { formatMoney } from '../../domain/money.ts';
import type { PositionReport, WalletReport } from '../../engine/futures/report.ts';
import { positionModeOf } from '../../engine/futures/settings.ts';
import { positionExitFields, v2OrderSource } from './plans.ts';
import type { EngineState } from '../../engine/state.ts';

const negative = (fee: string) => (fee === '0' ? '0' : `-${fee}`);

/** v2 side: in hedge mode the position direction (close long = buy), else the trade direction. */
function v2Side(order: OrderView): string {
  const futures = order.futures;
  if (futures?.posMode === 'hedge_mode') return futures.holdSide === 'long' ? 'buy' : 'sell';
  return order.side;
}

/**
 * v2 `tradeSide` in the venue's wide enum: hedge open/close, burst_close_<side> for a
 * liquidation order, dte_sys_adl_close_<side> for an ADL close; one-way <side>_single with
 * the burst_/reduce_ prefixes, dte_sys_adl_<side>_in_single_side_mode for ADL.
 */
function v2TradeSide(order: OrderView): string {
  const futures = order.futures;
  if (!futures) return '';
  const hedge = futures.posMode === 'hedge_mode';
  if (order.source === 'adl')
    return hedge ? `dte_sys_adl_close_${futures.holdSide}` : `dte_sys_adl_${order.side}_in_single_side_mode`;
  const burst = order.source === 'liquidation' && futures.tradeSide === 'close';
  if (hedge) return burst ? `burst_close_${futures.holdSide}` : futures.tradeSide;
  const prefix = burst ? 'burst_' : futures.reduceOnly ? 'reduce_' : '';
  return `${prefix}${order.side}_single`;
}

/** A fill's v2 tradeSide: the hedge spelling as recorded; one-way from the trade direction. */
function v2FillTradeSide(fill: FillView): string {
  if (fill.posMode === 'hedge_mode') return fill.tradeSide;
  if (fill.tradeSide.startsWith('dte_sys_adl')) return `dte_sys_adl_${fill.side}_in_single_side_mode`;
  if (fill.tradeSide.startsWith('burst')) return `burst_${fill.side}_single`;
  return `${fill.side}_single`;
}

/**
 * The order's TP/SL presets in v2 mix terms: trigger prices ('' when none) and, as newer rows
 * do, their trigger sources (`presetStopSurplusType` / `presetStopLossType`).
 */
export function v2PresetFields(order: OrderView): Record<string, string> {
  const takeProfit = order.futures?.takeProfit;
  const stopLoss = order.futures?.stopLoss;
  return {
    presetStopSurplusPrice: takeProfit?.triggerPrice ?? '',
    presetStopLossPrice: stopLoss?.triggerPrice ?? '',
    presetStopSurplusType: takeProfit?.triggerType ?? '',
    presetStopLossType: stopLoss?.triggerType ?? '',
  };
}

export function v2MixOrder(order: OrderView, statusKey: 'state' | 'status'): Record<string, unknown> {
  const futures = order.futures;
  return {
    symbol: order.symbol,
    size: order.qty,
    orderId: order.orderId,
    clientOid: order.clientOid,
    baseVolume: order.cumExecQty,
    fee: negative(order.fee),
    price: order.price,
    priceAvg: order.cumExecQty === '0' ? '' : order.avgPrice,
    [statusKey]: order.status === 'cancelled' ? 'canceled' : order.status,
    side: v2Side(order),
    force: order.timeInForce,
    totalProfits: futures?.realisedPnl ?? '0',
    posSide: futures?.posMode === 'hedge_mode' ? futures.holdSide : 'net',
    marginCoin: futures?.marginCoin ?? '',
    ...v2PresetFields(order),
    quoteVolume: order.cumExecValue,
    orderType: order.orderType,
    leverage: futures?.leverage ?? '',
    marginMode: futures?.marginMode ?? '',
    reduceOnly: futures?.reduceOnly ? 'YES' : 'NO',
    enterPointSource: 'API',
    tradeSide: v2TradeSide(order),
    posMode: futures?.posMode ?? '',
    orderSource: v2OrderSource(order.source, order.orderType),
    cancelReason: order.cancelReason,
    cTime: String(order.createdTimeMs),
    uTime: String(order.updatedTimeMs),
  };
}

export function v2MixFill(fill: FillView): Record<string, unknown> {
  const hedge = fill.posMode === 'hedge_mode';
  const side = hedge ? (fill.posSide === 'long' ? 'buy' : 'sell') : fill.side;
  return {
    tradeId: fill.execId,
    symbol: fill.symbol,
    orderId: fill.orderId,
    price: fill.execPrice,
    baseVolume: fill.execQty,
    feeDetail: [
      { deduction: 'no', feeCoin: fill.feeCoin, totalDeductionFee: null, totalFee: negative(fill.fee) },
    ],
    side,
    quoteVolume: fill.execValue,
    profit: fill.execPnl,
    enterPointSource: 'API',
    tradeSide: v2FillTradeSide(fill),
    posMode: fill.posMode ?? '',
    tradeScope: fill.tradeScope,
    cTime: String(fill.timeMs),
  };
}

export function v2Position(state: EngineState, report: PositionReport): Record<string, unknown> {
  const { position } = report;
  return {
    marginCoin: position.marginCoin,
    symbol: position.symbol,
    holdSide: position.holdSide,
    openDelegateSize: report.openDelegateSize,
    marginSize: report.marginSize,
    available: report.available,
    locked: report.locked,
    total: report.total,
    leverage: report.leverage,
    achievedProfits: report.achievedProfits,
    openPriceAvg: report.openPriceAvg,
    marginMode: position.marginMode,
    posMode: positionModeOf(state, position.uid, position.category),
    unrealizedPL: report.unrealisedPnl,
    liquidationPrice: report.liquidationPrice,
    keepMarginRate: report.keepMarginRate,
    markPrice: report.markPrice,
    breakEvenPrice: report.breakEvenPrice,
    totalFee: report.totalFunding,
    deductedFee: report.deductedFee,
    marginRatio: report.marginRatio,
    assetMode: 'single',
    autoMargin: 'off',
    grant: '',
    ...positionExitFields(state, position),
    cashDividend: '0',
    cTime: String(position.createdTimeMs),
    uTime: String(position.updatedTimeMs),
  };
}

export function v3Position(state: EngineState, report: PositionReport): Record<string, unknown> {
  const { position } = report;
  return {
    category: position.category,
    symbol: position.symbol,
    marginCoin: position.marginCoin,
    holdMode: positionModeOf(state, position.uid, position.category),
    posSide: position.holdSide,
    marginMode: position.marginMode,
    positionBalance: report.marginSize,
    available: report.available,
    frozen: report.locked,
    total: report.total,
    leverage: report.leverage,
    curRealisedPnl: report.achievedProfits,
    avgPrice: report.openPriceAvg,
    positionStatus: 'normal',
    unrealisedPnl: report.unrealisedPnl,
    liquidationPrice: report.liquidationPrice,
    mmr: report.keepMarginRate,
    profitRate: '0',
    markPrice: report.markPrice,
    breakEvenPrice: report.breakEvenPrice,
    totalFunding: report.totalFunding,
    openFeeTotal: formatMoney(-position.openFeeTotal),
    closeFeeTotal: formatMoney(-position.closeFeeTotal),
    createdTime: String(position.createdTimeMs),
    updatedTime: String(position.updatedTimeMs),
  };
}

export interface UnionView {
  assetMode: 'single' | 'union';
  /** USDT value of the collateral coins (after the haircut). */
  collateral: string;
  assetList: { coin: string; balance: string; available: string }[];
}

export function v2MixAccount(report: WalletReport, union?: UnionView): Record<string, unknown> {
  return {
    ...report,
    usdtEquity: report.accountEquity,
    btcEquity: '0',
    coupon: '0',
    grant: '0',
    assetMode: union?.assetMode ?? 'single',
    unionTotalMargin: report.accountEquity,
    unionAvailable: report.crossedMaxAvailable,
    unionMm: '0',
    unionCollateral: union?.collateral ?? '0',
    assetList: union?.assetList ?? [
      { coin: report.marginCoin, balance: report.accountEquity, available: report.available },
    ],
  };
}

/** Mix bills: `amount` excludes the fee, which is reported (negative) on its own. */
export function v2MixBill(bill: BillRow): Record<string, unknown> {
  return {
    billId: bill.billId,
    symbol: bill.symbol,
    amount: formatMoney(bill.amount + bill.fee),
    fee: bill.fee === 0n ? '0' : formatMoney(-bill.fee),
    feeByCoupon: '',
    businessType: bill.businessType,
    coin: bill.coin,
    balance: formatMoney(bill.balanceAfter),
    cTime: String(bill.timeMs),
  };
}
