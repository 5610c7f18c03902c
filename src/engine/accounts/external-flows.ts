/**
 * Deposits and withdrawals: the only way coins enter or leave the system. Each is counted in
 * `externalFlows`, the right-hand side of the conservation invariant.
 *
 * A `pending` one waits for the operator (funding-status.ts): a pending deposit credits
 * nothing until it succeeds; a pending withdrawal freezes its amount at once, takes it out
 * on success and returns it on failure. Records of a sub-account carry its main account
 * (`parentUid`), which is what the broker's deposit/withdrawal report reads.
 *
 * Every record carries its route (domain/funding.ts): chain, addresses, tag, clientOid. A
 * deposit to a named address must be to that account's address for the coin and chain; a
 * withdrawal clientOid is unique per account; a withdrawal to another account (`toUid`)
 * moves the coins between the two when it succeeds and leaves `externalFlows` alone.
 */
import type { Deposit, Withdraw } from '../../domain/commands.ts';
import {
  defaultChain,
  depositAddress,
  parseDepositAddress,
  type FundingDetail,
} from '../../domain/funding.ts';
import { fail, ok, type Failure, type Outcome } from '../../domain/result-code.ts';
import { MONEY_ONE } from '../../domain/money.ts';
import type { Context } from '../context.ts';
import { coinListed } from '../instruments/coins.ts';
import { freeze, post, readBalance } from './ledger.ts';
import { defaultWallet, walletAllowed } from './wallets.ts';

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
  clientOid: string;
}

type Refusal = { ok: false } & Failure;

/** The largest single deposit: a trillion coins (keeps every sum far inside safe ranges). */
const MAX_DEPOSIT = 10n ** 12n * MONEY_ONE;

const DESTS = { onchain: 'on_chain', internal: 'internal_transfer', fast: 'fast' } as const;

export function addFlow(context: Context, coin: string, amount: bigint): void {
  const flows = context.state.externalFlows;
  flows.set(coin, (flows.get(coin) ?? 0n) + amount);
}

/** A deposit's route: an on-chain one lands on the account's address for the coin and chain. */
function depositDetail(command: Deposit): FundingDetail | Refusal {
  const route = command.route ?? {};
  const onChain = command.subType === 'onchain';
  const chain = route.chain ?? (onChain ? defaultChain(command.coin) : '');
  if (route.address !== undefined) {
    const owner = parseDepositAddress(route.address);
    if (!owner || owner.uid !== command.uid || owner.coin !== command.coin || owner.chain !== chain) {
      return fail('PARAM_ERROR', 'address');
    }
  }
  return {
    dest: DESTS[command.subType],
    chain,
    toAddress: route.address ?? (onChain ? depositAddress(command.uid, command.coin, chain) : ''),
    fromAddress: route.fromAddress ?? '',
    tag: route.tag ?? '',
    clientOid: '',
    toUid: '',
  };
}

function withdrawalDetail(context: Context, command: Withdraw): FundingDetail | Refusal {
  const route = command.route ?? {};
  const clientOid = route.clientOid ?? '';
  if (clientOid && context.state.withdrawalClientOids.has(`${command.uid}|${clientOid}`)) {
    return fail('DUPLICATE_CLIENT_OID');
  }
  const toUid = route.toUid ?? '';
  if (toUid && !context.state.accounts.has(toUid)) return fail('ACCOUNT_NOT_FOUND', 'address');
  if (toUid === command.uid) return fail('PARAM_ERROR', 'address');
  return {
    dest: toUid ? 'internal_transfer' : DESTS[command.subType],
    chain: route.chain ?? '',
    toAddress: route.address ?? toUid,
    fromAddress: toUid ? command.uid : '',
    tag: route.tag ?? '',
    clientOid,
    toUid,
  };
}

const refused = (detail: FundingDetail | Refusal): detail is Refusal => 'ok' in detail;

export function deposit(context: Context, command: Deposit): Outcome<FundingReceipt> {
  const account = context.state.accounts.get(command.uid);
  if (!account) return fail('ACCOUNT_NOT_FOUND');
  if (!walletAllowed(account, command.wallet, context.state)) return fail('PARAM_ERROR', 'wallet');
  if (command.amount <= 0n || command.amount > MAX_DEPOSIT) return fail('PARAM_ERROR', 'amount');
  if (!coinListed(context.state, command.coin)) return fail('COIN_NOT_FOUND', command.coin);
  const detail = depositDetail(command);
  if (refused(detail)) return detail;
  if (command.status === 'pending') return ok(record(context, command, 'deposit', detail));
  post(context, {
    uid: command.uid,
    wallet: command.wallet,
    coin: command.coin,
    amount: command.amount,
    businessType: 'deposit',
  });
  addFlow(context, command.coin, command.amount);
  return ok(record(context, command, 'deposit', detail));
}

export function withdraw(context: Context, command: Withdraw): Outcome<FundingReceipt> {
  const account = context.state.accounts.get(command.uid);
  if (!account) return fail('ACCOUNT_NOT_FOUND');
  if (!walletAllowed(account, command.wallet, context.state)) return fail('PARAM_ERROR', 'wallet');
  if (command.amount <= 0n) return fail('PARAM_ERROR', 'amount');
  if (!coinListed(context.state, command.coin)) return fail('COIN_NOT_FOUND', command.coin);
  const detail = withdrawalDetail(context, command);
  if (refused(detail)) return detail;
  const balance = readBalance(context.state, command.uid, command.wallet, command.coin);
  if (balance.available < command.amount) return fail('INSUFFICIENT_BALANCE');
  const { uid, wallet, coin, amount } = command;
  freeze(context, uid, wallet, coin, amount);
  const txId = command.route?.txId ?? '';
  if (command.status !== 'pending') completeWithdrawal(context, { uid, wallet, coin, amount, txId, detail });
  const receipt = record(context, command, 'withdrawal', detail);
  if (detail.clientOid)
    context.state.withdrawalClientOids.set(`${uid}|${detail.clientOid}`, receipt.recordId);
  return ok(receipt);
}

/**
 * A withdrawal's frozen amount leaves its wallet: out of the system, or (an internal one)
 * into the receiving account's default wallet, with a deposit record of its own there.
 */
export function completeWithdrawal(
  context: Context,
  withdrawal: {
    uid: string;
    wallet: string;
    coin: string;
    amount: bigint;
    /** The withdrawal's transaction id, which the receiver's record shares ('' when not yet made). */
    txId: string;
    detail?: FundingDetail;
  },
): void {
  const { uid, wallet, coin, amount, detail } = withdrawal;
  post(context, { uid, wallet, coin, amount: -amount, businessType: 'withdraw', from: 'frozen' });
  const receiver = detail?.toUid ? context.state.accounts.get(detail.toUid) : undefined;
  if (!receiver) {
    addFlow(context, coin, -amount);
    return;
  }
  const toWallet = defaultWallet(receiver);
  post(context, { uid: receiver.uid, wallet: toWallet, coin, amount, businessType: 'deposit' });
  const incoming: FundingDetail = {
    dest: 'internal_transfer',
    chain: '',
    toAddress: receiver.uid,
    fromAddress: uid,
    tag: '',
    clientOid: '',
    toUid: '',
  };
  const route = { chain: '', address: receiver.uid, ...(withdrawal.txId ? { txId: withdrawal.txId } : {}) };
  const command: Deposit = {
    type: 'Deposit',
    timeMs: context.nowMs,
    uid: receiver.uid,
    coin,
    amount,
    wallet: toWallet,
    subType: 'internal',
    route,
  };
  record(context, command, 'deposit', incoming);
}

function record(
  context: Context,
  command: Deposit | Withdraw,
  direction: 'deposit' | 'withdrawal',
  detail: FundingDetail,
): FundingReceipt {
  const recordId = context.nextId();
  const txId = command.route?.txId ?? `bourse-${direction}-${recordId}`;
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
    detail,
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
      detail,
    });
  }
  const { uid, coin, amount, wallet } = command;
  return {
    recordId,
    txId,
    uid,
    coin,
    amount,
    wallet,
    direction,
    status,
    timeMs: context.nowMs,
    clientOid: detail.clientOid,
  };
}
