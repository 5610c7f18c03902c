/**
 * The operator settles a pending deposit or withdrawal (pending → success | fail):
 * - deposit success: the wallet is credited (a `deposit` bill) and the coins enter the system;
 * - deposit fail: nothing was credited, nothing changes but the record;
 * - withdrawal success: the frozen amount leaves (a `withdraw` bill from frozen), out of the
 *   system or, for a withdrawal to another account, into that account (external-flows.ts);
 * - withdrawal fail (the operator rejects it): the frozen amount returns to available.
 * A record settles once; a second settlement is FUNDING_NOT_PENDING.
 */
import type { SettleFunding } from '../../domain/commands.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import type { Context } from '../context.ts';
import { addFlow, completeWithdrawal } from './external-flows.ts';
import { freeze, post } from './ledger.ts';

export interface SettledFunding {
  recordId: string;
  status: 'success' | 'fail';
}

export function settleFunding(context: Context, command: SettleFunding): Outcome<SettledFunding> {
  const pending = context.state.brokerage.pendingFunding;
  const record = pending.get(command.recordId);
  if (!record) return fail('FUNDING_NOT_PENDING', 'recordId');
  const { uid, wallet, coin, amount } = record;
  if (record.direction === 'deposit' && command.status === 'success') {
    post(context, { uid, wallet, coin, amount, businessType: 'deposit' });
    addFlow(context, coin, amount);
  } else if (record.direction === 'withdrawal' && command.status === 'success') {
    completeWithdrawal(context, { uid, wallet, coin, amount, txId: record.txId, detail: record.detail });
  } else if (record.direction === 'withdrawal') {
    freeze(context, uid, wallet, coin, -amount);
  }
  pending.delete(command.recordId);
  context.emit({
    type: 'FundingSettled',
    recordId: record.recordId,
    txId: record.txId,
    uid,
    parentUid: record.parentUid,
    coin,
    amount,
    direction: record.direction,
    subType: record.subType,
    status: command.status,
    createdTimeMs: record.createdTimeMs,
    timeMs: context.nowMs,
    ...(record.detail ? { detail: record.detail } : {}),
  });
  return ok({ recordId: record.recordId, status: command.status });
}
