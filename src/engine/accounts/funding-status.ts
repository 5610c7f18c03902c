/**
 * The operator settles a pending deposit or withdrawal (pending → success | fail):
 * - deposit success: the wallet is credited (a `deposit` bill) and the coins enter the system;
 * - deposit fail: nothing was credited, nothing changes but the record;
 * - withdrawal success: the frozen amount leaves (a `withdraw` bill from frozen), out of the
 *   system or, for a withdrawal to another account, into that account (external-flows.ts);
 * - withdrawal fail (the operator rejects it): the frozen amount returns to available.
 * A record settles once; a second settlement is FUNDING_NOT_PENDING.
 *
 * The account may cancel its own pending withdrawal (CancelWithdrawal), by id or clientOid,
 * which is the failed settlement: the frozen amount returns and the record says `fail`.
 */
import type { CancelWithdrawal, SettleFunding } from '../../domain/commands.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import type { Context } from '../context.ts';
import { addFlow, completeWithdrawal } from './external-flows.ts';
import type { PendingFunding } from './brokerage-state.ts';
import { freeze, post } from './ledger.ts';

export interface SettledFunding {
  recordId: string;
  status: 'success' | 'fail';
}

export function settleFunding(context: Context, command: SettleFunding): Outcome<SettledFunding> {
  const record = context.state.brokerage.pendingFunding.get(command.recordId);
  if (!record) return fail('FUNDING_NOT_PENDING', 'recordId');
  return ok(settle(context, record, command.status));
}

export function cancelWithdrawal(context: Context, command: CancelWithdrawal): Outcome<SettledFunding> {
  const { state } = context;
  const field = command.recordId !== undefined ? 'orderId' : 'clientOid';
  const recordId =
    command.recordId ?? state.withdrawalClientOids.get(`${command.uid}|${command.clientOid ?? ''}`);
  const record = recordId === undefined ? undefined : state.brokerage.pendingFunding.get(recordId);
  if (!record || record.uid !== command.uid || record.direction !== 'withdrawal') {
    return fail('FUNDING_NOT_PENDING', field);
  }
  return ok(settle(context, record, 'fail'));
}

function settle(context: Context, record: PendingFunding, status: 'success' | 'fail'): SettledFunding {
  const { uid, wallet, coin, amount } = record;
  if (record.direction === 'deposit' && status === 'success') {
    post(context, { uid, wallet, coin, amount, businessType: 'deposit' });
    addFlow(context, coin, amount);
  } else if (record.direction === 'withdrawal' && status === 'success') {
    completeWithdrawal(context, { uid, wallet, coin, amount, txId: record.txId, detail: record.detail });
  } else if (record.direction === 'withdrawal') {
    freeze(context, uid, wallet, coin, -amount);
  }
  context.state.brokerage.pendingFunding.delete(record.recordId);
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
    status: status,
    createdTimeMs: record.createdTimeMs,
    timeMs: context.nowMs,
    ...(record.detail ? { detail: record.detail } : {}),
  });
  return { recordId: record.recordId, status: status };
}
