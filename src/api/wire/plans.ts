/**
 * Plan orders in the venue's shapes: v2 mix rows of orders-plan-pending / orders-plan-history
 * (as the venue answers today: `planStatus` `live` rather than the legacy
 * `not_trigger`, uppercase symbol and coin, `crossed`), v2 `orderSource` of plan-placed orders,
 * and v3 strategy-order rows.
 */
import type { OrderView } from '../../domain/order-view.ts';
import { positionKey, type Position } from '../../domain/position.ts';
import { positionExits } from '../../engine/triggers/plan-state.ts';
import type { EngineState } from '../../engine/state.ts';
import { formatMoney } from '../../domain/money.ts';
import { isTpslPlan, type PlanPreset, type PlanView } from '../../domain/plan.ts';
import type { ResultCode } from '../../domain/result-code.ts';
import { wireError } from '../error-map.ts';
import { nameTable } from '../../domain/name-table.ts';

const TPSL_SOURCE_PREFIX: Readonly<Record<string, string>> = nameTable({
  profit_plan: 'profit',
  loss_plan: 'loss',
  pos_profit: 'pos_profit',
  pos_loss: 'pos_loss',
  // A trailing TP/SL closes at market when the price retraces: the venue's stop-loss market kind.
  moving_plan: 'loss',
});

/**
 * v2 `orderSource` of an order: `normal`/`market` for ordinary orders, `plan` for an order a
 * trigger or trailing plan placed, `profit_market`, `pos_loss_limit`, … for TP/SL orders.
 */
export function v2OrderSource(source: string, orderType: string): string {
  if (source === 'liquidation') return 'liquidation';
  if (source === 'plan') return 'plan';
  const prefix = TPSL_SOURCE_PREFIX[source];
  if (prefix) return `${prefix}_${source === 'moving_plan' ? 'market' : orderType}`;
  return orderType === 'market' ? 'market' : 'normal';
}

/** v2 position rows: the position's live pos_profit / pos_loss trigger prices and ids. */
export function positionExitFields(state: EngineState, position: Position): Record<string, string> {
  const key = positionKey(position.uid, position.category, position.symbol, position.holdSide);
  const { takeProfit, stopLoss } = positionExits(state.plans, key);
  return {
    takeProfit: takeProfit ? formatMoney(takeProfit.triggerPrice) : '',
    stopLoss: stopLoss ? formatMoney(stopLoss.triggerPrice) : '',
    takeProfitId: takeProfit?.planId ?? '',
    stopLossId: stopLoss?.planId ?? '',
  };
}

function v2Side(plan: PlanView): string {
  if (plan.posMode === 'hedge_mode') return plan.holdSide === 'long' ? 'buy' : 'sell';
  return plan.side;
}

function v2TradeSide(plan: PlanView): string {
  if (plan.posMode === 'hedge_mode') return plan.tradeSide;
  return `${plan.reduceOnly ? 'reduce_' : ''}${plan.side}_single`;
}

function presetFields(name: 'stopSurplus' | 'stopLoss', preset: PlanPreset | undefined) {
  const preName = name === 'stopSurplus' ? 'presetStopSurplusPrice' : 'presetStopLossPrice';
  return {
    [preName]: preset?.triggerPrice ?? '',
    [`${name}TriggerPrice`]: preset?.triggerPrice ?? '',
    [`${name}TriggerType`]: preset?.triggerType ?? '',
    [`${name}ExecutePrice`]: preset?.executePrice ?? '',
  };
}

/** TP/SL plans show their own trigger in the stopSurplus* / stopLoss* fields. */
function exitFields(plan: PlanView) {
  const own: PlanPreset = {
    triggerPrice: plan.triggerPrice,
    triggerType: plan.triggerType,
    executePrice: plan.executePrice,
  };
  const profit = plan.planType === 'profit_plan' || plan.planType === 'pos_profit';
  const loss = plan.planType === 'loss_plan' || plan.planType === 'pos_loss';
  return {
    ...presetFields('stopSurplus', profit ? own : plan.takeProfit),
    ...presetFields('stopLoss', loss ? own : plan.stopLoss),
  };
}

export function v2PlanRow(plan: PlanView): Record<string, unknown> {
  return {
    planType: plan.planType,
    symbol: plan.symbol,
    size: plan.size,
    orderId: plan.planId,
    clientOid: plan.clientOid,
    price: plan.executePrice,
    executePrice: plan.executePrice,
    callbackRatio: plan.callbackRatio,
    triggerPrice: plan.triggerPrice,
    triggerType: plan.triggerType,
    planStatus: plan.status,
    side: v2Side(plan),
    posSide: plan.posMode === 'hedge_mode' ? plan.holdSide : 'net',
    marginCoin: plan.marginCoin,
    marginMode: plan.marginMode,
    enterPointSource: 'API',
    tradeSide: v2TradeSide(plan),
    posMode: plan.posMode,
    orderType: plan.orderType,
    orderSource: isTpslPlan(plan.planType) ? v2OrderSource(plan.planType, plan.orderType) : 'normal',
    reduceOnly: plan.reduceOnly ? 'YES' : 'NO',
    cTime: String(plan.createdTimeMs),
    uTime: String(plan.updatedTimeMs),
    ...exitFields(plan),
  };
}

function failFields(plan: PlanView, dialect: 'v2-mix' | 'v3') {
  if (!plan.failCode) return { failCode: '', failReason: '' };
  const wire = wireError(plan.failCode as Exclude<ResultCode, 'OK'>, dialect, plan.failParams ?? []);
  return { failCode: wire.code, failReason: wire.msg };
}

/** A history row: the pending row plus the order it placed (its average price and filled size). */
export function v2PlanHistoryRow(plan: PlanView, order: OrderView | null): Record<string, unknown> {
  const filled = order && order.cumExecQty !== '0';
  return {
    ...v2PlanRow(plan),
    executeOrderId: plan.executeOrderId,
    priceAvg: filled ? order.avgPrice : '',
    baseVolume: order?.cumExecQty ?? '0',
    ...failFields(plan, 'v2-mix'),
  };
}

const V3_STATUS: Readonly<Record<string, string>> = nameTable({
  live: 'pending',
  executed: 'success',
  fail_execute: 'failed',
  cancelled: 'cancelled',
});

const triggerBy = (type: string) => (type === 'mark_price' ? 'mark' : 'market');

/** A v3 trigger strategy order (a normal_plan or track_plan), with its TP/SL presets. */
function v3TriggerRow(plan: PlanView): Record<string, unknown> {
  const preset = (value: PlanPreset | undefined) => ({
    price: value?.triggerPrice ?? '',
    by: value ? triggerBy(value.triggerType) : '',
    type: value ? (value.executePrice ? 'limit' : 'market') : '',
    limit: value?.executePrice ?? '',
  });
  const tp = preset(plan.takeProfit);
  const sl = preset(plan.stopLoss);
  return {
    orderId: plan.planId,
    clientOid: plan.clientOid,
    category: plan.category,
    symbol: plan.symbol,
    type: 'trigger',
    qty: plan.size,
    side: plan.side,
    posSide: plan.posMode === 'hedge_mode' ? plan.holdSide : '',
    reduceOnly: plan.reduceOnly ? 'yes' : 'no',
    status: V3_STATUS[plan.status] ?? 'cancelled',
    triggerBy: triggerBy(plan.triggerType),
    triggerPrice: plan.triggerPrice,
    triggerOrderType: plan.orderType,
    triggerOrderPrice: plan.executePrice,
    callbackRatio: plan.callbackRatio,
    tpTriggerBy: tp.by,
    slTriggerBy: sl.by,
    takeProfit: tp.price,
    stopLoss: sl.price,
    tpOrderType: tp.type,
    slOrderType: sl.type,
    tpLimitPrice: tp.limit,
    slLimitPrice: sl.limit,
    executeOrderId: plan.executeOrderId,
    ...failFields(plan, 'v3'),
    createdTime: String(plan.createdTimeMs),
    updatedTime: String(plan.updatedTimeMs),
  };
}

/**
 * A v3 strategy order: the legs of one group (its TP and SL), as one row, or a trigger order.
 * Status: `pending` while a leg is live; else `success` if a leg executed, `failed` if one
 * failed, `cancelled`.
 */
export function v3StrategyRow(legs: readonly PlanView[]): Record<string, unknown> {
  const first = legs[0];
  if (!first) throw new Error('a strategy order without legs');
  if (!isTpslPlan(first.planType)) return v3TriggerRow(first);
  const takeProfit = legs.find((leg) => leg.planType === 'pos_profit' || leg.planType === 'profit_plan');
  const stopLoss = legs.find((leg) => leg.planType === 'pos_loss' || leg.planType === 'loss_plan');
  const statuses = legs.map((leg) => leg.status);
  const status = statuses.includes('live')
    ? 'live'
    : (['executed', 'fail_execute', 'cancelled'].find((candidate) => statuses.includes(candidate as never)) ??
      'cancelled');
  const updated = Math.max(...legs.map((leg) => leg.updatedTimeMs));
  const executed = legs.find((leg) => leg.status === 'executed');
  return {
    orderId: first.groupId ?? first.planId,
    clientOid: first.clientOid,
    category: first.category,
    symbol: first.symbol,
    type: 'tpsl',
    qty: first.size,
    // Spot TP/SL pairs protect no position.
    posSide: first.category === 'SPOT' ? '' : first.holdSide,
    status: V3_STATUS[status] ?? 'cancelled',
    tpslMode: first.planType === 'pos_profit' || first.planType === 'pos_loss' ? 'full' : 'partial',
    triggerType: executed ? (executed === stopLoss ? 'stopLoss' : 'takeProfit') : '',
    tpTriggerBy: takeProfit ? triggerBy(takeProfit.triggerType) : '',
    slTriggerBy: stopLoss ? triggerBy(stopLoss.triggerType) : '',
    takeProfit: takeProfit?.triggerPrice ?? '',
    stopLoss: stopLoss?.triggerPrice ?? '',
    tpOrderType: takeProfit?.orderType ?? '',
    slOrderType: stopLoss?.orderType ?? '',
    tpLimitPrice: takeProfit?.executePrice ?? '',
    slLimitPrice: stopLoss?.executePrice ?? '',
    executeOrderId: executed?.executeOrderId ?? '',
    ...failFields(legs.find((leg) => leg.failCode) ?? first, 'v3'),
    createdTime: String(first.createdTimeMs),
    updatedTime: String(updated),
  };
}
