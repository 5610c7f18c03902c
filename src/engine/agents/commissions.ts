/**
 * Agent commissions from the real trading fees of referred customers.
 *
 * As fills happen, the fee and the traded value of each referred customer's fill are added
 * to an accrual per (customer, UTC+8 day, fee coin, market). A clock job closes every day
 * before the current UTC+8 day: each accrual becomes one CommissionRecorded event and is
 * removed, so a day is reported once, on the next day (T+1), and running the job again
 * changes nothing. Fills before a customer was referred, and demo product lines, earn none.
 *
 * Figures per record (money in minor units): fee = feePaid = the fees charged (no coupons or
 * discounts exist here, so every deduction is 0); rebateAmount = fee × the agent's rate for
 * the product line, rounded down; userRebateAmount = 0 (no share goes back to the user);
 * dayTotalRebateAmount = the customer's rebate that day in that coin over all markets;
 * totalRebateAmount = the same over every closed day up to and including this one.
 */
import { divide } from '../../domain/decimal.ts';
import { MONEY_ONE } from '../../domain/money.ts';
import type { CommissionAccrual } from '../accounts/brokerage-state.ts';
import type { Context } from '../context.ts';
import type { EngineState } from '../state.ts';
import { utc8DayStartOf } from './days.ts';
import { nameTable } from '../../domain/name-table.ts';

/** The legacy market suffixes of the commission report. */
export const MARKET_SUFFIXES: Readonly<Record<string, string>> = nameTable({
  SPOT: '_SPBL',
  MARGIN: '_SPBL-MABL',
  'USDT-FUTURES': '_UMCBL',
  'COIN-FUTURES': '_DMCBL',
  'USDC-FUTURES': '_CMCBL',
});

export type ProductLine = 'spot' | 'margin' | 'futures';

export function productLineOf(category: string): ProductLine {
  return category === 'SPOT' ? 'spot' : category === 'MARGIN' ? 'margin' : 'futures';
}

/** What a fill contributes to its customer's accrual: money in minor units. */
export interface AccruedFill {
  uid: string;
  category: string;
  symbol: string;
  feeCoin: string;
  /** The traded value (quote). */
  value: bigint;
  fee: bigint;
  timeMs: number;
}

/** Adds a fill to its customer's accrual, if the customer was referred (fill-record.ts). */
export function accrueFill(state: EngineState, fill: AccruedFill): void {
  const suffix = MARKET_SUFFIXES[fill.category];
  const referral = state.brokerage.referrals.get(fill.uid);
  if (!suffix || !referral) return;
  const dayStartMs = utc8DayStartOf(fill.timeMs);
  const symbol = `${fill.symbol}${suffix}`;
  const key = `${fill.uid}|${dayStartMs}|${fill.feeCoin}|${symbol}`;
  let accrual = state.brokerage.accruals.get(key);
  if (!accrual) {
    accrual = {
      agentUid: referral.agentUid,
      uid: fill.uid,
      dayStartMs,
      coin: fill.feeCoin,
      symbol,
      category: fill.category,
      dealAmount: 0n,
      fee: 0n,
    };
    state.brokerage.accruals.set(key, accrual);
  }
  accrual.dealAmount += fill.value;
  accrual.fee += fill.fee;
}

function rebateOf(state: EngineState, accrual: CommissionAccrual): bigint {
  const terms = state.brokerage.agents.get(accrual.agentUid);
  if (!terms) return 0n;
  const rate = terms.lineRates[productLineOf(accrual.category)] ?? terms.rebateRate;
  return divide(accrual.fee * rate, MONEY_ONE, 'down');
}

function compareAccruals(a: CommissionAccrual, b: CommissionAccrual): number {
  if (a.dayStartMs !== b.dayStartMs) return a.dayStartMs - b.dayStartMs;
  const left = `${a.uid}|${a.coin}|${a.symbol}`;
  const right = `${b.uid}|${b.coin}|${b.symbol}`;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Closes every UTC+8 day before the current one: one record per accrual, in day order. */
export function closeCommissionDays(context: Context): void {
  const { brokerage } = context.state;
  const today = utc8DayStartOf(context.nowMs);
  if (today <= brokerage.commissionsClosedToMs) return;
  brokerage.commissionsClosedToMs = today;
  const closing = [...brokerage.accruals.entries()].filter(([, accrual]) => accrual.dayStartMs < today);
  closing.sort(([, a], [, b]) => compareAccruals(a, b));
  const groups = new Map<string, { accrual: CommissionAccrual; rebate: bigint }[]>();
  for (const [key, accrual] of closing) {
    brokerage.accruals.delete(key);
    const group = `${accrual.uid}|${accrual.dayStartMs}|${accrual.coin}`;
    const members = groups.get(group) ?? [];
    members.push({ accrual, rebate: rebateOf(context.state, accrual) });
    groups.set(group, members);
  }
  for (const members of groups.values()) {
    const first = members[0];
    if (!first) continue;
    const dayTotal = members.reduce((sum, member) => sum + member.rebate, 0n);
    const totalKey = `${first.accrual.uid}|${first.accrual.coin}`;
    const total = (brokerage.rebateTotals.get(totalKey) ?? 0n) + dayTotal;
    brokerage.rebateTotals.set(totalKey, total);
    for (const { accrual, rebate } of members) {
      context.emit({
        type: 'CommissionRecorded',
        recordId: context.nextId(),
        agentUid: accrual.agentUid,
        uid: accrual.uid,
        dateMs: accrual.dayStartMs,
        coin: accrual.coin,
        symbol: accrual.symbol,
        category: accrual.category,
        dealAmount: accrual.dealAmount,
        fee: accrual.fee,
        feePaid: accrual.fee,
        rebateAmount: rebate,
        userRebateAmount: 0n,
        dayTotalRebateAmount: dayTotal,
        totalRebateAmount: total,
        timeMs: context.nowMs,
      });
    }
  }
}
