/**
 * The fill history record of one side of a trade, as both spot and futures settlement write it;
 * the fill also accrues its agent commission (agents/commissions.ts).
 */
import type { FillView } from '../../domain/events.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { formatMoney } from '../../domain/money.ts';
import type { Order } from '../../domain/order.ts';
import type { Context } from '../context.ts';
import { accrueFill } from '../agents/commissions.ts';
import { lotsToQuantity, ticksToPrice } from '../instruments/scales.ts';
import type { Fill } from '../matching/index.ts';

export interface FillOutcome {
  role: 'maker' | 'taker';
  tradeId: string;
  feeCoin: string;
  fee: bigint;
  pnl: bigint;
  /** open / close, or a futures forced close's venue spelling (futures/settle.ts). */
  tradeSide: string;
  /** Futures only. */
  posSide?: string;
  posMode?: string;
}

export function recordFill(
  context: Context,
  instrument: Instrument,
  order: Order,
  fill: Fill,
  outcome: FillOutcome,
): void {
  const execId = context.nextId();
  // The accrual takes the fee's size, as the fee report has always counted it.
  accrueFill(context.state, {
    uid: order.uid,
    category: order.category,
    symbol: instrument.symbol,
    feeCoin: outcome.feeCoin,
    value: fill.quote,
    fee: outcome.fee < 0n ? -outcome.fee : outcome.fee,
    timeMs: context.nowMs,
  });
  if (!context.recording) return;
  const view: FillView = {
    execId,
    tradeId: outcome.tradeId,
    orderId: order.orderId,
    clientOid: order.clientOid,
    uid: order.uid,
    category: order.category,
    symbol: instrument.symbol,
    orderType: order.orderType,
    side: order.side,
    execPrice: ticksToPrice(instrument, fill.priceTicks),
    execQty: lotsToQuantity(instrument, fill.lots),
    execValue: formatMoney(fill.quote),
    tradeScope: outcome.role,
    tradeSide: outcome.tradeSide,
    feeCoin: outcome.feeCoin,
    fee: formatMoney(outcome.fee),
    execPnl: formatMoney(outcome.pnl),
    timeMs: context.nowMs,
    ...(outcome.posSide ? { posSide: outcome.posSide } : {}),
    ...(outcome.posMode ? { posMode: outcome.posMode } : {}),
  };
  context.emit({ type: 'FillRecorded', fill: view });
}
