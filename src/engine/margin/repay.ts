/**
 * Repaying margin debt from the same coin in the wallet: interest first, then principal.
 * Pays what is available, up to what is owed.
 */
import type { RepayDebt } from '../../domain/commands.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import type { Context } from '../context.ts';
import { post } from '../accounts/ledger.ts';
import { tradingWallet } from '../trading/wallets.ts';

export function repayCoin(context: Context, uid: string, wallet: string, coin: string): bigint {
  const balance = context.state.balances.get(`${uid}|${wallet}|${coin}`);
  if (!balance) return 0n;
  const owed = balance.interest + balance.borrowed;
  const paid = owed < balance.available ? owed : balance.available;
  if (paid <= 0n) return 0n;
  const towardInterest = paid < balance.interest ? paid : balance.interest;
  post(context, { uid, wallet, coin, amount: -paid, businessType: 'repay', category: 'MARGIN' });
  balance.interest -= towardInterest;
  balance.borrowed -= paid - towardInterest;
  return paid;
}

export function repayDebt(context: Context, command: RepayDebt): Outcome<{ repaid: bigint }> {
  const wallet = tradingWallet(context.state, command.uid, 'MARGIN');
  for (const coin of command.coins) {
    const balance = context.state.balances.get(`${command.uid}|${wallet}|${coin}`);
    if (!balance || balance.borrowed + balance.interest === 0n) return fail('NO_DEBT', coin);
  }
  let repaid = 0n;
  for (const coin of command.coins) repaid += repayCoin(context, command.uid, wallet, coin);
  return ok({ repaid });
}
