/**
 * The `body` column of the orders and fills tables: the fields of a view that are not columns
 * of their own, as a JSON array in a fixed order, led by the format's version. An order row is
 * written on every change of every order, so its body is the largest thing a busy store writes:
 * the array form is about a fifth of the view's JSON (no keys, none of the indexed columns
 * repeated) and a third of its cost to print (docs/performance.md).
 *
 * Reading joins the columns and the body back into the view. Bodies written before this form
 * (the whole view as a JSON object) are still read as they are.
 *
 * Adding a field: append it to the end of the array and read a missing one as its default, so
 * every body ever written stays readable (the format's version then stays 1).
 */
import type { FillView } from '../domain/events.ts';
import type { OrderView } from '../domain/order-view.ts';
import type { PlanPreset } from '../domain/plan.ts';

/** The first element of a body in the array form. */
const ARRAY_FORM = 1;

type Row = Record<string, unknown>;

/** An order's body: what its row's columns (order_id, uid, client_oid, …) do not hold. */
export function orderBody(order: OrderView): string {
  const futures = order.futures;
  const values: unknown[] = [
    ARRAY_FORM,
    order.wallet,
    order.side,
    order.orderType,
    order.timeInForce,
    order.stpMode,
    order.price,
    order.qty,
    order.amount,
    order.cumExecQty,
    order.cumExecValue,
    order.avgPrice,
    order.feeCoin,
    order.fee,
    order.cancelReason,
    order.source,
  ];
  if (futures) {
    const fields: unknown[] = [
      futures.holdSide,
      futures.tradeSide,
      futures.reduceOnly,
      futures.posMode,
      futures.marginMode,
      futures.leverage,
      futures.marginCoin,
      futures.realisedPnl,
    ];
    if (futures.takeProfit || futures.stopLoss)
      fields.push(presetBody(futures.takeProfit), presetBody(futures.stopLoss));
    values.push(fields);
  }
  // After the futures element (null when absent): a spot order's presets [takeProfit,
  // stopLoss], or a margin order's loanType (the two never meet: margin orders take no presets).
  const spot = order.spotPresets;
  const next = spot ? [presetBody(spot.takeProfit), presetBody(spot.stopLoss)] : order.loanType;
  if (next !== undefined) {
    if (!futures) values.push(null);
    values.push(next);
  }
  return JSON.stringify(values);
}

/** The order of a row holding order_id, uid, client_oid, category, symbol, status, created_ms, updated_ms and body. */
export function orderOfRow(row: Row): OrderView {
  const body = String(row.body);
  if (!body.startsWith('[')) return JSON.parse(body) as OrderView;
  const values = JSON.parse(body) as unknown[];
  const text = (index: number) => String(values[index]);
  const view: OrderView = {
    orderId: String(row.order_id),
    clientOid: String(row.client_oid),
    uid: String(row.uid),
    category: String(row.category),
    symbol: String(row.symbol),
    wallet: text(1),
    side: text(2),
    orderType: text(3),
    timeInForce: text(4),
    stpMode: text(5),
    price: text(6),
    qty: text(7),
    amount: text(8),
    cumExecQty: text(9),
    cumExecValue: text(10),
    avgPrice: text(11),
    feeCoin: text(12),
    fee: text(13),
    status: String(row.status),
    cancelReason: text(14),
    source: text(15),
    createdTimeMs: Number(row.created_ms),
    updatedTimeMs: Number(row.updated_ms),
  };
  if (typeof values[17] === 'string') view.loanType = values[17];
  const futures = values[16];
  if (Array.isArray(futures)) {
    const field = (index: number) => String(futures[index]);
    view.futures = {
      holdSide: field(0),
      tradeSide: field(1),
      reduceOnly: futures[2] === true,
      posMode: field(3),
      marginMode: field(4),
      leverage: field(5),
      marginCoin: field(6),
      realisedPnl: field(7),
    };
    const takeProfit = presetOfBody(futures[8]);
    const stopLoss = presetOfBody(futures[9]);
    if (takeProfit) view.futures.takeProfit = takeProfit;
    if (stopLoss) view.futures.stopLoss = stopLoss;
  }
  const spot = values[17];
  if (Array.isArray(spot)) {
    const takeProfit = presetOfBody(spot[0]);
    const stopLoss = presetOfBody(spot[1]);
    view.spotPresets = { ...(takeProfit ? { takeProfit } : {}), ...(stopLoss ? { stopLoss } : {}) };
  }
  return view;
}

/** A TP/SL preset in a body: [triggerPrice, triggerType, executePrice], or null. */
function presetBody(preset: PlanPreset | undefined): unknown {
  return preset ? [preset.triggerPrice, preset.triggerType, preset.executePrice] : null;
}

function presetOfBody(value: unknown): PlanPreset | undefined {
  if (!Array.isArray(value)) return undefined;
  const [triggerPrice, triggerType, executePrice] = value as unknown[];
  return {
    triggerPrice: String(triggerPrice),
    triggerType: triggerType === 'mark_price' ? 'mark_price' : 'fill_price',
    executePrice: String(executePrice ?? ''),
  };
}

/** A fill's body: what its row's columns (exec_id, uid, order_id, category, symbol, time_ms) do not hold. */
export function fillBody(fill: FillView): string {
  const values: unknown[] = [
    ARRAY_FORM,
    fill.tradeId,
    fill.clientOid,
    fill.orderType,
    fill.side,
    fill.execPrice,
    fill.execQty,
    fill.execValue,
    fill.tradeScope,
    fill.tradeSide,
    fill.feeCoin,
    fill.fee,
    fill.execPnl,
  ];
  if (fill.posSide !== undefined || fill.posMode !== undefined)
    values.push(fill.posSide ?? null, fill.posMode ?? null);
  return JSON.stringify(values);
}

/** The fill of a row holding exec_id, uid, order_id, category, symbol, time_ms and body. */
export function fillOfRow(row: Row): FillView {
  const body = String(row.body);
  if (!body.startsWith('[')) return JSON.parse(body) as FillView;
  const values = JSON.parse(body) as unknown[];
  const text = (index: number) => String(values[index]);
  const view: FillView = {
    execId: String(row.exec_id),
    tradeId: text(1),
    orderId: String(row.order_id),
    clientOid: text(2),
    uid: String(row.uid),
    category: String(row.category),
    symbol: String(row.symbol),
    orderType: text(3),
    side: text(4),
    execPrice: text(5),
    execQty: text(6),
    execValue: text(7),
    tradeScope: values[8] === 'maker' ? 'maker' : 'taker',
    tradeSide: text(9),
    feeCoin: text(10),
    fee: text(11),
    execPnl: text(12),
    timeMs: Number(row.time_ms),
  };
  if (typeof values[13] === 'string') view.posSide = values[13];
  if (typeof values[14] === 'string') view.posMode = values[14];
  return view;
}
