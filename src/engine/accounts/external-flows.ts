/**
 * Operator deposits and withdrawals: the only way coins enter or leave the system. Each is
 * counted in `externalFlows`, the right-hand side of the conservation invariant.
 *
 * A `pending` one waits for the operator (funding-status.ts): a pending deposit credits
 * nothing until it succeeds; a pending withdrawal freezes its amount at once, takes it out
 * on success and returns it on failure. Records of a sub-account carry its main account
 * (`parentUid`), which is what the broker's deposit/withdrawal report reads.
 */
import type { Deposit, Withdraw } from '../../domain/commands.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import { MONEY_ONE } from '../../domain/money.ts';
import type { Context } from '../context.ts';
import { coinListed } from '../instruments/coins.ts';
import { freeze, post, readBalance } from './ledger.ts';
import { walletAllowed } from './wallets.ts';

export interface FundingReceipt {
  recordId: string;
  txId: string;
  uid: string;
  coin: string;
  amount: bigint;
  wallet: string;
  direction: 'deposit' | 'withdrawal';
  status: 'pending' | 'success';
  timeMs: number;
}

/** The largest single deposit: a trillion coins (keeps every sum far inside safe ranges). */
const MAX_DEPOSIT = 10n ** 12n * MONEY_ONE;

export function addFlow(context: Context, coin: string, amount: bigint): void {
  const flows = context.state.externalFlows;
  flows.set(coin, (flows.get(coin) ?? 0n) + amount);
}

export function deposit(context: Context, command: Deposit): Outcome<FundingReceipt> {
  const account = context.state.accounts.get(command.uid);
  if (!account) return fail('ACCOUNT_NOT_FOUND');
  if (!walletAllowed(account, command.wallet, context.state)) return fail('PARAM_ERROR', 'wallet');
  if (command.amount <= 0n || command.amount > MAX_DEPOSIT) return fail('PARAM_ERROR', 'amount');
  if (!coinListed(context.state, command.coin)) return fail('COIN_NOT_FOUND', command.coin);
  if (command.status === 'pending') return ok(record(context, command, 'deposit'));
  post(context, {
    uid: command.uid,
    wallet: command.wallet,
    coin: command.coin,
    amount: command.amount,
    businessType: 'deposit',
  });
  addFlow(context, command.coin, command.amount);
  return ok(record(context, command, 'deposit'));
}

export function withdraw(context: Context, command: Withdraw): Outcome<FundingReceipt> {
  const account = context.state.accounts.get(command.uid);
  if (!account) return fail('ACCOUNT_NOT_FOUND');
  if (!walletAllowed(account, command.wallet, context.state)) return fail('PARAM_ERROR', 'wallet');
  if (command.amount <= 0n) return fail('PARAM_ERROR', 'amount');
  const balance = readBalance(context.state, command.uid, command.wallet, command.coin);
  if (balance.available < command.amount) return fail('INSUFFICIENT_BALANCE');
  if (command.status === 'pending') {
    freeze(context, command.uid, command.wallet, command.coin, command.amount);
    return ok(record(context, command, 'withdrawal'));
  }
  post(context, {
    uid: command.uid,
    wallet: command.wallet,
    coin: command.coin,
    amount: -command.amount,
    businessType: 'withdraw',
  });
  addFlow(context, command.coin, -command.amount);
  return ok(record(context, command, 'withdrawal'));
}

function record(
  context: Context,
  command: Deposit | Withdraw,
  direction: 'deposit' | 'withdrawal',
): FundingReceipt {
  const recordId = context.nextId();
  const txId = `bourse-${direction}-${recordId}`;
  const status = command.status ?? 'success';
  const parentUid = context.state.accounts.get(command.uid)?.parentUid ?? '';
  context.emit({
    type: 'FundingRecorded',
    recordId,
    txId,
    uid: command.uid,
    coin: command.coin,
    amount: command.amount,
    direction,
    subType: command.subType,
    status,
    timeMs: context.nowMs,
    ...(parentUid ? { parentUid } : {}),
  });
  if (status === 'pending') {
    context.state.brokerage.pendingFunding.set(recordId, {
      recordId,
      txId,
      uid: command.uid,
      parentUid,
      wallet: command.wallet,
      coin: command.coin,
      amount: command.amount,
      direction,
      subType: command.subType,
      createdTimeMs: context.nowMs,
    });
  }
  return {
    recordId,
    txId,
    uid: command.uid,
    coin: command.coin,
    amount: command.amount,
    wallet: command.wallet,
    direction,
    status,
    timeMs: context.nowMs,
  };
}
