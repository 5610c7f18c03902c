/**
 * Transfers between wallets: within one account (`wallet`), and between a main account and
 * its sub-accounts or two of its sub-accounts (`sub`, asked by the main account). Each
 * transfer writes a bill on both sides and a TransferRecorded event; a sub-account side also
 * gets an `internal` deposit or withdrawal record for the broker report.
 *
 * Invariants: validation runs before any change, so a refused transfer changes nothing; a
 * transfer moves value between accounts and never touches `externalFlows`, so conservation
 * holds. A clientOid repeated within the window with the same request returns the first
 * transfer (no second move); with a different request it is DUPLICATE_CLIENT_OID.
 */
import type { TransferFunds } from '../../domain/commands.ts';
import { CLIENT_OID_WINDOW_MS } from '../../domain/order.ts';
import { fail, ok, type Failure, type Outcome } from '../../domain/result-code.ts';
import type { Context } from '../context.ts';
import type { EngineState } from '../state.ts';
import type { TradingContext } from '../trading/trading-context.ts';
import { post } from './ledger.ts';
import {
  coinRefusal,
  debtAllowsTransfer,
  transferableAmount,
  transferBusinessType,
} from './transfer-rules.ts';
import { walletAllowed } from './wallets.ts';
import { coinListed } from '../instruments/coins.ts';

export interface TransferReceipt {
  transferId: string;
  clientOid: string;
}

type Refusal = { ok: false } & Failure;

function fingerprint(command: TransferFunds): string {
  const { kind, fromUid, toUid, fromWallet, toWallet, coin, amount } = command;
  return [kind, fromUid, toUid, fromWallet, toWallet, coin, amount.toString()].join('|');
}

function checkParties(state: EngineState, command: TransferFunds): Refusal | null {
  const asker = state.accounts.get(command.uid);
  const from = state.accounts.get(command.fromUid);
  const to = state.accounts.get(command.toUid);
  if (!asker) return fail('ACCOUNT_NOT_FOUND', 'uid');
  if (!from) return fail('ACCOUNT_NOT_FOUND', 'fromUserId');
  if (!to) return fail('ACCOUNT_NOT_FOUND', 'toUserId');
  if (command.kind === 'wallet') {
    if (command.fromUid !== command.uid || command.toUid !== command.uid) return fail('PARAM_ERROR', 'uid');
    if (command.fromWallet === command.toWallet) return fail('PARAM_ERROR', 'toType');
  } else {
    if (asker.kind !== 'main') return fail('PERMISSION_DENIED', 'main account');
    const mine = (uid: string, parentUid: string | null) => uid === asker.uid || parentUid === asker.uid;
    if (!mine(from.uid, from.parentUid)) return fail('PARAM_ERROR', 'fromUserId');
    if (!mine(to.uid, to.parentUid)) return fail('PARAM_ERROR', 'toUserId');
    if (from.uid === to.uid) return fail('PARAM_ERROR', 'toUserId');
  }
  if (from.status === 'freeze' || to.status === 'freeze') return fail('USER_STATUS_ABNORMAL');
  if (!walletAllowed(from, command.fromWallet)) return fail('PARAM_ERROR', 'fromType');
  // An unlisted isolated-margin symbol is reported as `symbol` by coinRefusal below.
  if (!walletAllowed(to, command.toWallet)) return fail('PARAM_ERROR', 'toType');
  return null;
}

function checkCoin(state: EngineState, command: TransferFunds): Refusal | null {
  if (command.amount <= 0n) return fail('PARAM_ERROR', 'amount');
  if (!coinListed(state, command.coin)) return fail('COIN_NOT_FOUND', command.coin);
  const fromRefusal = coinRefusal(state, command.fromWallet, command.coin, command.fromUid);
  if (fromRefusal) return fail('PARAM_ERROR', fromRefusal);
  const toRefusal = coinRefusal(state, command.toWallet, command.coin, command.toUid);
  if (toRefusal) return fail('PARAM_ERROR', toRefusal);
  return null;
}

function checkFunds(trading: TradingContext, command: TransferFunds): Refusal | null {
  const { state } = trading.context;
  const { fromUid, fromWallet, coin, amount } = command;
  if (transferableAmount(state, trading.books, fromUid, fromWallet, coin) < amount) {
    return fail('INSUFFICIENT_BALANCE');
  }
  if (!debtAllowsTransfer(state, fromUid, fromWallet, coin, amount)) return fail('TRANSFER_EXCEEDS_MAXIMUM');
  return null;
}

function symbolOf(wallet: string): string {
  const at = wallet.indexOf(':');
  return at < 0 ? '' : wallet.slice(at + 1);
}

/** The broker's `internal` records for the sub-account side(s) of a sub-account transfer. */
function recordInternalFlows(context: Context, command: TransferFunds, transferId: string): void {
  const legs: [string, 'deposit' | 'withdrawal'][] = [];
  if (command.fromUid !== command.uid) legs.push([command.fromUid, 'withdrawal']);
  if (command.toUid !== command.uid) legs.push([command.toUid, 'deposit']);
  for (const [uid, direction] of legs) {
    context.emit({
      type: 'FundingRecorded',
      recordId: context.nextId(),
      txId: transferId,
      uid,
      coin: command.coin,
      amount: command.amount,
      direction,
      subType: 'internal',
      status: 'success',
      timeMs: context.nowMs,
      parentUid: command.uid,
    });
  }
}

export function transferFunds(trading: TradingContext, command: TransferFunds): Outcome<TransferReceipt> {
  const { context } = trading;
  const { state } = context;
  const refused = checkParties(state, command) ?? checkCoin(state, command);
  if (refused) return refused;
  const oidKey = `${command.uid}|${command.clientOid}`;
  const seen = command.clientOid ? state.brokerage.transferClientOids.get(oidKey) : undefined;
  if (seen) {
    if (seen.fingerprint !== fingerprint(command)) return fail('DUPLICATE_CLIENT_OID');
    return ok({ transferId: seen.transferId, clientOid: command.clientOid });
  }
  const short = checkFunds(trading, command);
  if (short) return short;

  const { fromUid, toUid, fromWallet, toWallet, coin, amount } = command;
  const transferId = context.nextId();
  post(context, {
    uid: fromUid,
    wallet: fromWallet,
    coin,
    amount: -amount,
    businessType: transferBusinessType(fromWallet, 'out'),
    symbol: symbolOf(fromWallet),
  });
  post(context, {
    uid: toUid,
    wallet: toWallet,
    coin,
    amount,
    businessType: transferBusinessType(toWallet, 'in'),
    symbol: symbolOf(toWallet),
  });
  context.emit({
    type: 'TransferRecorded',
    transferId,
    uid: command.uid,
    kind: command.kind,
    fromUid,
    toUid,
    fromWallet,
    toWallet,
    coin,
    amount,
    clientOid: command.clientOid,
    timeMs: context.nowMs,
  });
  if (command.kind === 'sub') recordInternalFlows(context, command, transferId);
  if (command.clientOid) {
    state.brokerage.transferClientOids.set(oidKey, {
      transferId,
      fingerprint: fingerprint(command),
      timeMs: context.nowMs,
    });
  }
  return ok({ transferId, clientOid: command.clientOid });
}

/** Forgets transfer clientOids older than the idempotency window (hourly, on the clock). */
export function pruneTransferClientOids(state: EngineState, nowMs: number): void {
  for (const [key, entry] of state.brokerage.transferClientOids) {
    if (nowMs - entry.timeMs >= CLIENT_OID_WINDOW_MS) state.brokerage.transferClientOids.delete(key);
  }
}
