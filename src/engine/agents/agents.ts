/**
 * Agents (affiliates), the customers they referred, and KYC results, all set by the operator.
 *
 * An agent and its customers are main accounts; a customer belongs to one agent (referring it
 * again to the same agent is a no-op, to another one is refused). Rebate rates are fractions
 * of the fee in money scale (MONEY_ONE = 100 %), one for every product line unless a line
 * (spot, margin, futures) has its own. A KYC result is kept per account; the agent's report
 * sees it once the account is its customer, with the time the result was set.
 */
import type { ReferCustomer, RegisterAgent, SetKycResult } from '../../domain/commands.ts';
import { MONEY_ONE } from '../../domain/money.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import type { AgentTerms } from '../accounts/brokerage-state.ts';
import type { Context } from '../context.ts';

function rateValid(rate: bigint | undefined): boolean {
  return rate === undefined || (rate >= 0n && rate <= MONEY_ONE);
}

export function registerAgent(context: Context, command: RegisterAgent): Outcome<AgentTerms> {
  const { brokerage, accounts } = context.state;
  const account = accounts.get(command.uid);
  if (!account) return fail('ACCOUNT_NOT_FOUND', 'uid');
  if (account.kind !== 'main') return fail('PARAM_ERROR', 'uid');
  if (!rateValid(command.rebateRate)) return fail('PARAM_ERROR', 'rebateRate');
  const { spot, margin, futures } = command.lineRates;
  if (!rateValid(spot)) return fail('PARAM_ERROR', 'spotRebateRate');
  if (!rateValid(margin)) return fail('PARAM_ERROR', 'marginRebateRate');
  if (!rateValid(futures)) return fail('PARAM_ERROR', 'futuresRebateRate');
  const terms: AgentTerms = {
    rebateRate: command.rebateRate,
    lineRates: { ...command.lineRates },
    registeredTimeMs: brokerage.agents.get(command.uid)?.registeredTimeMs ?? context.nowMs,
  };
  brokerage.agents.set(command.uid, terms);
  return ok({ ...terms, lineRates: { ...terms.lineRates } });
}

export function referCustomer(
  context: Context,
  command: ReferCustomer,
): Outcome<{ agentUid: string; customerUid: string }> {
  const { brokerage, accounts } = context.state;
  if (!brokerage.agents.has(command.agentUid)) return fail('ACCOUNT_NOT_FOUND', 'agentUid');
  const customer = accounts.get(command.customerUid);
  if (!customer) return fail('ACCOUNT_NOT_FOUND', 'customerUid');
  if (customer.kind !== 'main' || customer.uid === command.agentUid)
    return fail('PARAM_ERROR', 'customerUid');
  const result = { agentUid: command.agentUid, customerUid: command.customerUid };
  const existing = brokerage.referrals.get(command.customerUid);
  if (existing)
    return existing.agentUid === command.agentUid ? ok(result) : fail('PARAM_ERROR', 'customerUid');
  brokerage.referrals.set(command.customerUid, { agentUid: command.agentUid, timeMs: context.nowMs });
  context.emit({ type: 'CustomerReferred', ...result, timeMs: context.nowMs });
  const kyc = brokerage.kyc.get(command.customerUid);
  if (kyc) {
    context.emit({ type: 'KycRecorded', uid: command.customerUid, agentUid: command.agentUid, ...kyc });
  }
  return ok(result);
}

export function setKycResult(
  context: Context,
  command: SetKycResult,
): Outcome<{ uid: string; result: string; timeMs: number }> {
  const { brokerage, accounts } = context.state;
  if (!accounts.has(command.uid)) return fail('ACCOUNT_NOT_FOUND', 'uid');
  brokerage.kyc.set(command.uid, { result: command.result, timeMs: context.nowMs });
  context.emit({
    type: 'KycRecorded',
    uid: command.uid,
    agentUid: brokerage.referrals.get(command.uid)?.agentUid ?? '',
    result: command.result,
    timeMs: context.nowMs,
  });
  return ok({ uid: command.uid, result: command.result, timeMs: context.nowMs });
}
