/**
 * The ledger: every change of a balance goes through here and is written as a bill.
 *
 * Invariant: available and frozen never go negative; a debit that would make them so is a
 * bug in the caller (callers check `available` first and return INSUFFICIENT_BALANCE).
 */
import { emptyBalance, type Balance } from '../../domain/wallet.ts';
import type { Context } from '../context.ts';
import type { EngineState } from '../state.ts';

export function balanceKey(uid: string, wallet: string, coin: string): string {
  return `${uid}|${wallet}|${coin}`;
}

export function readBalance(state: EngineState, uid: string, wallet: string, coin: string): Balance {
  return state.balances.get(balanceKey(uid, wallet, coin)) ?? emptyBalance();
}

function balanceFor(state: EngineState, uid: string, wallet: string, coin: string): Balance {
  const key = balanceKey(uid, wallet, coin);
  let balance = state.balances.get(key);
  if (!balance) {
    balance = emptyBalance();
    state.balances.set(key, balance);
  }
  return balance;
}

export interface Posting {
  uid: string;
  wallet: string;
  coin: string;
  /** Signed change of the balance. */
  amount: bigint;
  businessType: string;
  symbol?: string;
  fee?: bigint;
  /** Which part of the balance changes: available (default) or frozen (settling a hold). */
  from?: 'available' | 'frozen';
}

/** Changes an available (or frozen) balance and writes the bill. */
export function post(context: Context, posting: Posting): void {
  const balance = balanceFor(context.state, posting.uid, posting.wallet, posting.coin);
  if (posting.from === 'frozen') balance.frozen += posting.amount;
  else balance.available += posting.amount;
  if (balance.available < 0n || balance.frozen < 0n) {
    throw new Error(`ledger: ${posting.uid} ${posting.wallet} ${posting.coin} would go negative`);
  }
  context.emit({
    type: 'BillPosted',
    billId: context.nextId(),
    uid: posting.uid,
    wallet: posting.wallet,
    coin: posting.coin,
    symbol: posting.symbol ?? '',
    amount: posting.amount,
    fee: posting.fee ?? 0n,
    balanceAfter: balance.available + balance.frozen,
    businessType: posting.businessType,
    timeMs: context.nowMs,
  });
}

/** Moves funds between available and frozen (no bill: the balance itself is unchanged). */
export function freeze(context: Context, uid: string, wallet: string, coin: string, amount: bigint): void {
  const balance = balanceFor(context.state, uid, wallet, coin);
  if (amount > balance.available || -amount > balance.frozen) {
    throw new Error(`ledger: cannot freeze ${amount} of ${uid} ${wallet} ${coin}`);
  }
  balance.available -= amount;
  balance.frozen += amount;
}

/** Borrowing (margin): available and the debt grow together, so net holdings are unchanged. */
export function borrow(
  context: Context,
  uid: string,
  wallet: string,
  coin: string,
  amount: bigint,
  symbol = '',
): void {
  const balance = balanceFor(context.state, uid, wallet, coin);
  balance.borrowed += amount;
  post(context, { uid, wallet, coin, amount, businessType: 'borrow', symbol });
}
