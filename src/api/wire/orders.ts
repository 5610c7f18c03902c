/**
 * Order and fill records in the venue's shapes. One OrderView, several wires:
 * v3 (orderStatus, feeDetail [{feeCoin, fee}] with charged fees negative), v2 spot
 * (status, feeDetail as a JSON *string*, size in quote for a market buy), v2 spot fills
 * (feeDetail an object). The venue's answers differ in these ways; bourse reproduces them.
 */
import type { FillView } from '../../domain/events.ts';
import type { OrderView } from '../../domain/order-view.ts';
import type { PlanPreset } from '../../domain/plan.ts';

const negative = (fee: string) => (fee === '0' ? '0' : `-${fee}`);

/** The order's TP/SL presets in v3 terms ('' when none); `market` is the last price. */
function v3PresetFields(order: OrderView): Record<string, string> {
  const leg = (preset: PlanPreset | undefined) => ({
    price: preset?.triggerPrice ?? '',
    by: preset ? (preset.triggerType === 'mark_price' ? 'mark' : 'market') : '',
    type: preset ? (preset.executePrice ? 'limit' : 'market') : '',
    limit: preset?.executePrice ?? '',
  });
  const presets = order.futures ?? order.spotPresets;
  const tp = leg(presets?.takeProfit);
  const sl = leg(presets?.stopLoss);
  return {
    takeProfit: tp.price,
    stopLoss: sl.price,
    tpTriggerBy: tp.by,
    slTriggerBy: sl.by,
    tpOrderType: tp.type,
    slOrderType: sl.type,
    tpLimitPrice: tp.limit,
    slLimitPrice: sl.limit,
  };
}

export function v3Order(order: OrderView): Record<string, unknown> {
  const futures = order.futures;
  return {
    orderId: order.orderId,
    clientOid: order.clientOid,
    category: order.category,
    symbol: order.symbol,
    orderType: order.orderType,
    side: order.side,
    price: order.price,
    qty: order.qty,
    amount: order.amount,
    cumExecQty: order.cumExecQty,
    cumExecValue: order.cumExecValue,
    avgPrice: order.avgPrice,
    timeInForce: order.timeInForce,
    orderStatus: order.status,
    posSide: futures ? futures.holdSide : '',
    holdMode: futures ? futures.posMode : '',
    tradeSide: futures ? futures.tradeSide : 'open',
    reduceOnly: futures?.reduceOnly ? 'YES' : 'NO',
    marginMode: futures ? futures.marginMode : order.category === 'SPOT' ? '' : 'crossed',
    stpMode: order.stpMode,
    ...v3PresetFields(order),
    delegateType:
      order.source === 'liquidation' ? 'liquidation' : order.orderType === 'market' ? 'market' : 'normal',
    feeDetail: [{ feeCoin: order.feeCoin, fee: negative(order.fee) }],
    cancelReason: order.cancelReason,
    execType: order.source === 'liquidation' ? 'liquidation' : 'normal',
    createdTime: String(order.createdTimeMs),
    updatedTime: String(order.updatedTimeMs),
  };
}

export function v3Fill(fill: FillView): Record<string, unknown> {
  return {
    execId: fill.execId,
    execLinkId: fill.tradeId,
    orderId: fill.orderId,
    clientOid: fill.clientOid,
    category: fill.category,
    symbol: fill.symbol,
    orderType: fill.orderType,
    side: fill.side,
    execPrice: fill.execPrice,
    execQty: fill.execQty,
    execValue: fill.execValue,
    tradeScope: fill.tradeScope,
    tradeSide: fill.tradeSide,
    feeDetail: [{ feeCoin: fill.feeCoin, fee: negative(fill.fee) }],
    createdTime: String(fill.timeMs),
    updatedTime: String(fill.timeMs),
    execPnl: fill.execPnl,
    isRPI: 'no',
  };
}

/**
 * A v3 `fill` push: the venue's field list (its Fill channel), which differs from the REST
 * fill: `execTime` and `updatedTime` rather than `createdTime`, and `holdSide` on futures.
 */
export function v3FillPush(fill: FillView): Record<string, unknown> {
  const rest = v3Fill(fill);
  return {
    category: rest.category,
    orderId: rest.orderId,
    clientOid: rest.clientOid,
    execId: rest.execId,
    execLinkId: rest.execLinkId,
    symbol: rest.symbol,
    orderType: rest.orderType,
    side: rest.side,
    ...(fill.posSide ? { holdSide: fill.posSide } : {}),
    execPrice: rest.execPrice,
    execQty: rest.execQty,
    execValue: rest.execValue,
    execPnl: rest.execPnl,
    tradeScope: rest.tradeScope,
    tradeSide: rest.tradeSide,
    feeDetail: rest.feeDetail,
    execTime: String(fill.timeMs),
    updatedTime: String(fill.timeMs),
  };
}

/** The venue's spot feeDetail: a JSON-encoded string with JSON numbers, written from decimals. */
function spotFeeDetail(order: OrderView): string {
  if (order.fee === '0') return '';
  const charged = negative(order.fee);
  return (
    `{"newFees":{"c":0,"d":0,"deduction":false,"r":${charged},"t":${charged},"totalDeductionFee":0},` +
    `"${order.feeCoin}":{"deduction":false,"feeCoinCode":"${order.feeCoin}","totalDeductionFee":0,"totalFee":${charged}}}`
  );
}

export function v2SpotOrder(order: OrderView): Record<string, unknown> {
  const marketBuy = order.orderType === 'market' && order.side === 'buy';
  return {
    userId: order.uid,
    symbol: order.symbol,
    orderId: order.orderId,
    clientOid: order.clientOid,
    price: order.price,
    size: marketBuy ? order.amount : order.qty,
    orderType: order.orderType,
    side: order.side,
    status: order.status,
    priceAvg: order.avgPrice,
    baseVolume: order.cumExecQty,
    quoteVolume: order.cumExecValue,
    enterPointSource: 'API',
    feeDetail: spotFeeDetail(order),
    orderSource: order.orderType === 'market' ? 'market' : 'normal',
    cancelReason: order.cancelReason,
    cTime: String(order.createdTimeMs),
    uTime: String(order.updatedTimeMs),
    tpslType: 'normal',
    triggerPrice: null,
    ...v2SpotPresetFields(order),
  };
}

/** A spot order's TP/SL presets as v2 spot shows them ('' when none). */
function v2SpotPresetFields(order: OrderView): Record<string, string> {
  const { takeProfit, stopLoss } = order.spotPresets ?? {};
  return {
    presetTakeProfitPrice: takeProfit?.triggerPrice ?? '',
    executeTakeProfitPrice: takeProfit?.executePrice ?? '',
    presetStopLossPrice: stopLoss?.triggerPrice ?? '',
    executeStopLossPrice: stopLoss?.executePrice ?? '',
  };
}

/** unfilled-orders: `priceAvg` is the limit price and `basePrice` the average fill (a venue quirk). */
export function v2SpotOpenOrder(order: OrderView): Record<string, unknown> {
  return { ...v2SpotOrder(order), priceAvg: order.price, basePrice: order.avgPrice };
}

export function v2SpotFill(fill: FillView): Record<string, unknown> {
  return {
    userId: fill.uid,
    symbol: fill.symbol,
    orderId: fill.orderId,
    tradeId: fill.execId,
    orderType: fill.orderType,
    side: fill.side,
    priceAvg: fill.execPrice,
    size: fill.execQty,
    amount: fill.execValue,
    feeDetail: {
      deduction: 'no',
      feeCoin: fill.feeCoin,
      totalDeductionFee: '',
      totalFee: negative(fill.fee),
    },
    tradeScope: fill.tradeScope,
    cTime: String(fill.timeMs),
    uTime: String(fill.timeMs),
  };
}
