/**
 * The fill history record of one side of a trade, as both spot and futures settlement write it;
 * the fill also accrues its agent commission (agents/commissions.ts).
 */
import type { Instrument } from '../../domain/instrument.ts';
import type { Order } from '../../domain/order.ts';
import type { Context } from '../context.ts';
import { accrueFill } from '../agents/commissions.ts';
import type { Fill } from '../matching/index.ts';
import { FillRecordedRecord, type FillOutcome } from './report-records.ts';

export type { FillOutcome } from './report-records.ts';

export function recordFill(
  context: Context,
  instrument: Instrument,
  order: Order,
  fill: Fill,
  outcome: FillOutcome,
): void {
  const execId = context.nextId();
  // The accrual takes the fee's size, as the fee report has always counted it. Only referred
  // customers accrue (accrueFill returns at once otherwise): no record to build for the rest.
  if (context.state.brokerage.referrals.has(order.uid))
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
  context.emit(new FillRecordedRecord(execId, instrument, order, fill, outcome, context.nowMs));
}
