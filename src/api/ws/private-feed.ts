/**
 * Private channel rows in the venue's WebSocket shapes, built from the same OrderView and
 * FillView the REST history serves (api/wire/*.ts), so ids and figures are REST's: orders
 * (v2 spot, v2 futures, v3), fills, positions, accounts and the position history.
 *
 * The v2 `orders` row also carries the latest fill of the command that produced it
 * (fillPrice, tradeId, baseVolume = that fill's size, fillFee negative, tradeScope T/M),
 * as the venue's does; a taker that matched several makers in one command gets one order row
 * (its final state) and one `fill` row per match.
 */
import type { Category } from '../../domain/category.ts';
import { isFutures } from '../../domain/category.ts';
import { divide, parseScaled } from '../../domain/decimal.ts';
import type { FillView, PositionClosed } from '../../domain/events.ts';
import { formatMoney, MONEY_ONE, MONEY_SCALE } from '../../domain/money.ts';
import type { OrderView } from '../../domain/order-view.ts';
import type { Position } from '../../domain/position.ts';
import { positionReport, walletReport } from '../../engine/futures/report.ts';
import type { EngineState } from '../../engine/state.ts';
import type { Books } from '../../engine/trading/books.ts';
import { usdtPriceOf } from '../../engine/trading/reference-price.ts';
import { tradingWallet } from '../../engine/trading/wallets.ts';
import { v2MixFill, v2MixOrder, v2Position, v3Position } from '../wire/futures.ts';
import { v3Order } from '../wire/orders.ts';
import type { PlanChange } from './batch.ts';
import { nameTable } from '../../domain/name-table.ts';
import { v2SpotPlanPush } from '../wire/spot-plans.ts';

type Row = Record<string, unknown>;

const negative = (fee: string) => (fee === '0' ? '0' : `-${fee}`);

function latestFillFields(fill: FillView | undefined): Row {
  if (!fill) return {};
  return {
    fillPrice: fill.execPrice,
    tradeId: fill.execId,
    baseVolume: fill.execQty,
    fillTime: String(fill.timeMs),
    fillFee: negative(fill.fee),
    fillFeeCoin: fill.feeCoin,
    tradeScope: fill.tradeScope === 'maker' ? 'M' : 'T',
    fillNotionalUsd: fill.execValue,
    pnl: fill.execPnl,
  };
}

export function v2OrderRow(order: OrderView, latest: FillView | undefined): Row {
  const feeDetail = order.fee === '0' ? [] : [{ feeCoin: order.feeCoin, fee: negative(order.fee) }];
  if (!order.futures) {
    const marketBuy = order.orderType === 'market' && order.side === 'buy';
    return {
      instId: order.symbol,
      orderId: order.orderId,
      clientOid: order.clientOid,
      price: order.price,
      size: marketBuy ? order.amount : order.qty,
      newSize: marketBuy ? order.amount : order.qty,
      notional: order.cumExecValue,
      orderType: order.orderType,
      force: order.timeInForce,
      side: order.side,
      ...latestFillFields(latest),
      accBaseVolume: order.cumExecQty,
      priceAvg: order.avgPrice,
      status: order.status,
      cancelReason: order.cancelReason,
      stpMode: order.stpMode,
      feeDetail,
      enterPointSource: 'API',
      cTime: String(order.createdTimeMs),
      uTime: String(order.updatedTimeMs),
    };
  }
  const rest = v2MixOrder(order, 'status');
  return {
    instId: order.symbol,
    orderId: order.orderId,
    clientOid: order.clientOid,
    price: order.price,
    size: order.qty,
    posMode: rest.posMode,
    enterPointSource: 'API',
    tradeSide: rest.tradeSide,
    notionalUsd: order.cumExecValue,
    orderType: order.orderType,
    force: order.timeInForce,
    side: rest.side,
    posSide: rest.posSide,
    marginMode: rest.marginMode,
    marginCoin: rest.marginCoin,
    ...latestFillFields(latest),
    accBaseVolume: order.cumExecQty,
    priceAvg: order.avgPrice,
    status: rest.status,
    cancelReason: order.cancelReason,
    leverage: rest.leverage,
    feeDetail,
    totalProfits: rest.totalProfits,
    reduceOnly: order.futures.reduceOnly ? 'yes' : 'no',
    presetStopSurplusPrice: rest.presetStopSurplusPrice,
    presetStopLossPrice: rest.presetStopLossPrice,
    stpMode: order.stpMode,
    cTime: String(order.createdTimeMs),
    uTime: String(order.updatedTimeMs),
  };
}

export function v2FillRow(fill: FillView, clientOid: string): Row {
  if (fill.posMode === undefined) {
    return {
      orderId: fill.orderId,
      clientOid,
      tradeId: fill.execId,
      symbol: fill.symbol,
      orderType: fill.orderType,
      side: fill.side,
      priceAvg: fill.execPrice,
      size: fill.execQty,
      amount: fill.execValue,
      tradeScope: fill.tradeScope,
      feeDetail: [
        { feeCoin: fill.feeCoin, deduction: 'no', totalDeductionFee: '0', totalFee: negative(fill.fee) },
      ],
      cTime: String(fill.timeMs),
      uTime: String(fill.timeMs),
    };
  }
  return { ...v2MixFill(fill), clientOid, uTime: String(fill.timeMs) };
}

export function v3OrderRow(order: OrderView): Row {
  const row = v3Order(order);
  const futures = order.futures;
  if (!futures) return row;
  return {
    ...row,
    holdMode: futures.posMode,
    holdSide: futures.holdSide,
    posSide: futures.holdSide,
    tradeSide: futures.tradeSide,
    reduceOnly: futures.reduceOnly ? 'yes' : 'no',
    marginMode: futures.marginMode,
    marginCoin: futures.marginCoin,
    leverage: futures.leverage,
    totalProfit: futures.realisedPnl,
  };
}

/** The venue's WebSocket plan types are short codes (REST normal_plan is "pl", …). */
const WS_PLAN_TYPES: Readonly<Record<string, string>> = nameTable({
  normal_plan: 'pl',
  track_plan: 'track',
  profit_plan: 'tp',
  loss_plan: 'sl',
  pos_profit: 'ptp',
  pos_loss: 'psl',
  moving_plan: 'mtpsl',
});

export function v2PlanRow(plan: PlanChange): Row {
  if (plan.category === 'SPOT') return v2SpotPlanPush(plan);
  const hedge = plan.posMode === 'hedge_mode';
  return {
    instId: plan.symbol,
    orderId: plan.planId,
    clientOid: plan.clientOid,
    triggerPrice: plan.triggerPrice,
    triggerType: plan.triggerType,
    triggerTime: plan.status === 'live' ? '' : String(plan.updatedTimeMs),
    planType: WS_PLAN_TYPES[plan.planType] ?? plan.planType,
    price: plan.executePrice,
    executePrice: plan.executePrice,
    size: plan.size,
    actualSize: plan.status === 'executed' ? plan.size : '0',
    orderType: plan.orderType,
    side: hedge ? (plan.holdSide === 'long' ? 'buy' : 'sell') : plan.side,
    tradeSide: plan.tradeSide,
    posSide: hedge ? plan.holdSide : 'net',
    marginCoin: plan.marginCoin,
    status: plan.status,
    posMode: plan.posMode,
    enterPointSource: 'API',
    callbackRatio: plan.callbackRatio,
    stpMode: plan.stpMode,
    cTime: String(plan.createdTimeMs),
    uTime: String(plan.updatedTimeMs),
  };
}

export function v3PlanRow(plan: PlanChange): Row {
  return {
    orderId: plan.planId,
    clientOid: plan.clientOid,
    category: plan.category,
    symbol: plan.symbol,
    planType: plan.planType,
    triggerPrice: plan.triggerPrice,
    triggerBy: plan.triggerType,
    orderType: plan.orderType,
    price: plan.executePrice,
    qty: plan.size,
    side: plan.side,
    holdSide: plan.holdSide,
    tradeSide: plan.tradeSide,
    reduceOnly: plan.reduceOnly ? 'yes' : 'no',
    marginMode: plan.marginMode,
    marginCoin: plan.marginCoin,
    status: plan.status,
    executeOrderId: plan.executeOrderId,
    createdTime: String(plan.createdTimeMs),
    updatedTime: String(plan.updatedTimeMs),
  };
}

function positionsOf(state: EngineState, uid: string, category: Category | null): Position[] {
  const list: Position[] = [];
  for (const position of state.positions.values()) {
    if (position.uid === uid && (category === null || position.category === category)) list.push(position);
  }
  return list.sort((a, b) =>
    a.symbol === b.symbol ? (a.holdSide < b.holdSide ? -1 : 1) : a.symbol < b.symbol ? -1 : 1,
  );
}

export function positionRows(
  state: EngineState,
  books: Books,
  uid: string,
  category: Category | null,
  dialect: 'v2' | 'v3',
): Row[] {
  return positionsOf(state, uid, category).flatMap((position) => {
    const report = positionReport(state, books, position);
    if (!report) return [];
    if (dialect === 'v3') return [v3Position(state, report)];
    const rest = v2Position(state, report);
    return [
      {
        posId: position.positionId,
        instId: position.symbol,
        marginCoin: position.marginCoin,
        marginSize: report.marginSize,
        marginMode: position.marginMode,
        holdSide: position.holdSide,
        posMode: rest.posMode,
        total: report.total,
        available: report.available,
        frozen: report.locked,
        openPriceAvg: report.openPriceAvg,
        leverage: report.leverage,
        achievedProfits: report.achievedProfits,
        unrealizedPL: report.unrealisedPnl,
        unrealizedPLR: ratioOf(report.unrealisedPnl, report.marginSize),
        liquidationPrice: report.liquidationPrice,
        keepMarginRate: report.keepMarginRate,
        marginRate: report.marginRatio,
        breakEvenPrice: report.breakEvenPrice,
        totalFee: report.totalFunding,
        deductedFee: report.deductedFee,
        markPrice: report.markPrice,
        assetMode: 'single',
        autoMargin: 'off',
        cTime: String(position.createdTimeMs),
        uTime: String(position.updatedTimeMs),
      },
    ];
  });
}

/** a ÷ b of two money strings, at money precision, toward zero. */
function ratioOf(numerator: string, denominator: string): string {
  const above = parseScaled(numerator, MONEY_SCALE) ?? 0n;
  const below = parseScaled(denominator, MONEY_SCALE) ?? 0n;
  return below === 0n ? '0' : formatMoney(divide(above * MONEY_ONE, below, 'down'));
}

export function positionHistoryRow(closed: PositionClosed['position']): Row {
  return {
    posId: closed.positionId,
    instId: closed.symbol,
    marginCoin: closed.marginCoin,
    marginMode: closed.marginMode,
    holdSide: closed.holdSide,
    posMode: closed.posMode,
    openPriceAvg: closed.openAvgPrice,
    closePriceAvg: closed.closeAvgPrice,
    openSize: closed.openTotalPos,
    closeSize: closed.closeTotalPos,
    achievedProfits: closed.pnl,
    settleFee: closed.totalFunding,
    openFee: closed.openFee,
    closeFee: closed.closeFee,
    cTime: String(closed.createdTimeMs),
    uTime: String(closed.updatedTimeMs),
  };
}

function walletCoins(state: EngineState, uid: string, wallet: string): [string, bigint, bigint][] {
  const prefix = `${uid}|${wallet}|`;
  const rows: [string, bigint, bigint][] = [];
  for (const [key, balance] of state.balances) {
    if (key.startsWith(prefix)) rows.push([key.slice(prefix.length), balance.available, balance.frozen]);
  }
  return rows.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

function marginCoinsOf(state: EngineState, category: Category): string[] {
  const coins = new Set<string>();
  for (const instrument of state.instruments.values()) {
    if (instrument.category === category) instrument.marginCoins.forEach((coin) => coins.add(coin));
  }
  return [...coins].sort();
}

/** v2 account rows, keyed by coin: spot balances, or futures wallet reports per margin coin. */
export function v2AccountRows(
  state: EngineState,
  books: Books,
  uid: string,
  category: Category,
  coin: string,
): Map<string, Row> {
  const rows = new Map<string, Row>();
  const wallet = tradingWallet(state, uid, category);
  if (!isFutures(category)) {
    for (const [name, available, frozen] of walletCoins(state, uid, wallet)) {
      if (coin && name !== coin) continue;
      rows.set(name, {
        coin: name,
        available: formatMoney(available),
        frozen: formatMoney(frozen),
        locked: '0',
        limitAvailable: '0',
        uTime: String(state.nowMs),
      });
    }
    return rows;
  }
  for (const marginCoin of marginCoinsOf(state, category)) {
    if (coin && marginCoin !== coin) continue;
    const report = walletReport(state, books, uid, wallet, marginCoin);
    rows.set(marginCoin, {
      marginCoin,
      frozen: report.locked,
      available: report.available,
      maxOpenPosAvailable: report.crossedMaxAvailable,
      maxTransferOut: report.maxTransferOut,
      equity: report.accountEquity,
      usdtEquity: report.accountEquity,
      crossedRiskRate: report.crossedRiskRate,
      unrealizedPL: report.unrealizedPL,
      unionTotalMargin: report.accountEquity,
      unionAvailable: report.crossedMaxAvailable,
      unionMm: '0',
      assetsMode: 'single',
    });
  }
  return rows;
}

/** The v3 account push: the unified wallet's coins with their USD value, as /api/v3/account/assets. */
export function v3AccountRow(state: EngineState, uid: string): Row {
  let equity = 0n;
  const prefix = `${uid}|${tradingWallet(state, uid, 'SPOT')}|`;
  const coins: Row[] = [];
  for (const [key, balance] of [...state.balances].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (!key.startsWith(prefix)) continue;
    const total = balance.available + balance.frozen;
    if (total + balance.borrowed === 0n) continue;
    const coin = key.slice(prefix.length);
    const coinEquity = total - balance.borrowed - balance.interest;
    const value = divide(coinEquity * (usdtPriceOf(state, coin) ?? 0n), MONEY_ONE, 'down');
    equity += value;
    coins.push({
      coin,
      equity: formatMoney(coinEquity),
      usdValue: formatMoney(value),
      balance: formatMoney(total),
      available: formatMoney(balance.available),
      locked: formatMoney(balance.frozen),
      debts: formatMoney(balance.borrowed + balance.interest),
      borrow: formatMoney(balance.borrowed),
    });
  }
  return {
    unrealisedPnL: '0',
    totalEquity: formatMoney(equity),
    effEquity: formatMoney(equity),
    mmr: '0',
    imr: '0',
    mgnRatio: '0',
    positionMgnRatio: '0',
    coin: coins,
  };
}
