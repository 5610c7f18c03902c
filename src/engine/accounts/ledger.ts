/**
 * The ledger: every change of a balance goes through here and is written as a bill.
 *
 * Invariant: available and frozen never go negative; a debit that would make them so is a
 * bug in the caller (callers check `available` first and return INSUFFICIENT_BALANCE).
 */
import { INSURANCE_FUND_UID } from '../../domain/account.ts';
import { categoryOfWallet, emptyBalance, walletTotal, type Balance } from '../../domain/wallet.ts';
import type { Context } from '../context.ts';
import type { EngineState } from '../state.ts';

/**
 * Where available may go below zero: the insurance fund (covering losses beyond it is what
 * ADL is for), and USDT in a union-mode USDT-M wallet, where it is a liability backed by the
 * wallet's other coins (futures/union.ts; liquidation sweeps them).
 */
export function mayGoNegative(state: EngineState, uid: string, wallet: string, coin: string): boolean {
  if (uid === INSURANCE_FUND_UID) return true;
  return wallet === 'usdt_futures' && coin === 'USDT' && state.assetModes.get(uid) === 'union';
}

/**
 * Balances by uid, wallet and coin over `state.balances` (whose keys are balanceKey texts):
 * a balance is looked up several times per fill, and a key text built anew must be hashed
 * anew, while uid, wallet and coin are texts already held. Derived: built as balances are
 * found, per balances map (a snapshot makes a new one); `balanceFor` is the only writer.
 */
const indexes = new WeakMap<Map<string, Balance>, Map<string, Map<string, Map<string, Balance>>>>();
/** The index of the balances map used last: one engine's map, nearly always (spares a WeakMap get). */
let lastBalances: Map<string, Balance> | undefined;
let lastIndex: Map<string, Map<string, Map<string, Balance>>> | undefined;

function indexOf(balances: Map<string, Balance>): Map<string, Map<string, Map<string, Balance>>> | undefined {
  if (balances === lastBalances) return lastIndex;
  const index = indexes.get(balances);
  if (index) {
    lastBalances = balances;
    lastIndex = index;
  }
  return index;
}

function indexed(
  balances: Map<string, Balance>,
  uid: string,
  wallet: string,
  coin: string,
  balance: Balance,
): void {
  let byUid = indexOf(balances);
  if (!byUid) {
    byUid = new Map();
    indexes.set(balances, byUid);
  }
  let byWallet = byUid.get(uid);
  if (!byWallet) {
    byWallet = new Map();
    byUid.set(uid, byWallet);
  }
  let byCoin = byWallet.get(wallet);
  if (!byCoin) {
    byCoin = new Map();
    byWallet.set(wallet, byCoin);
  }
  byCoin.set(coin, balance);
}

/**
 * The balance found last, with its map and names: a hold reads a balance and then freezes in
 * it, a fill posts twice to each side's wallet. A balance record, once in its map, stays there
 * (nothing deletes or replaces one), so a found one may be remembered.
 */
let foundIn: Map<string, Balance> | undefined;
let foundUid = '';
let foundWallet = '';
let foundCoin = '';
let foundBalance: Balance | undefined;

/** The balance record, if it exists. */
export function findBalance(
  state: EngineState,
  uid: string,
  wallet: string,
  coin: string,
): Balance | undefined {
  const balances = state.balances;
  if (balances === foundIn && uid === foundUid && coin === foundCoin && wallet === foundWallet)
    return foundBalance;
  const balance = indexOf(balances)?.get(uid)?.get(wallet)?.get(coin) ?? lookUp(balances, uid, wallet, coin);
  if (balance) {
    foundIn = balances;
    foundUid = uid;
    foundWallet = wallet;
    foundCoin = coin;
    foundBalance = balance;
  }
  return balance;
}

function lookUp(
  balances: Map<string, Balance>,
  uid: string,
  wallet: string,
  coin: string,
): Balance | undefined {
  const balance = balances.get(balanceKey(uid, wallet, coin));
  if (balance) indexed(balances, uid, wallet, coin, balance);
  return balance;
}

/** Mutable balance record (created on first use). */
export function balanceFor(state: EngineState, uid: string, wallet: string, coin: string): Balance {
  let balance = findBalance(state, uid, wallet, coin);
  if (!balance) {
    balance = emptyBalance();
    state.balances.set(balanceKey(uid, wallet, coin), balance);
    indexed(state.balances, uid, wallet, coin, balance);
  }
  return balance;
}

/** Moves funds between available and isolated margin (no bill: the wallet total is unchanged). */
export function moveToMargin(
  state: EngineState,
  uid: string,
  wallet: string,
  coin: string,
  amount: bigint,
): void {
  const balance = balanceFor(state, uid, wallet, coin);
  if (amount > balance.available || -amount > balance.margin) {
    throw new Error(`ledger: cannot move ${amount} to margin for ${uid} ${wallet} ${coin}`);
  }
  balance.available -= amount;
  balance.margin += amount;
}

export function balanceKey(uid: string, wallet: string, coin: string): string {
  return `${uid}|${wallet}|${coin}`;
}

export function readBalance(state: EngineState, uid: string, wallet: string, coin: string): Balance {
  return findBalance(state, uid, wallet, coin) ?? emptyBalance();
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
  /** Product line of the change; defaults to the wallet's own (domain/wallet.ts). */
  category?: string;
  /** Which part of the balance changes: available (default), frozen (settling a hold) or
   * margin (isolated position margin). */
  from?: 'available' | 'frozen' | 'margin';
}

/** Changes an available (or frozen) balance and writes the bill; the bill's id. */
export function post(context: Context, posting: Posting): string {
  return postChange(
    context,
    posting.uid,
    posting.wallet,
    posting.coin,
    posting.amount,
    posting.businessType,
    posting.symbol ?? '',
    posting.fee ?? 0n,
    posting.category ?? categoryOfWallet(posting.wallet),
    posting.from ?? 'available',
  );
}

/**
 * `post` with every field given, in arguments: a fill posts four times, and a Posting object
 * per posting was garbage the moment it was read.
 */
export function postChange(
  context: Context,
  uid: string,
  wallet: string,
  coin: string,
  amount: bigint,
  businessType: string,
  symbol: string,
  fee: bigint,
  category: string,
  from: 'available' | 'frozen' | 'margin',
): string {
  const balance = balanceFor(context.state, uid, wallet, coin);
  if (from === 'frozen') balance.frozen += amount;
  else if (from === 'margin') balance.margin += amount;
  else balance.available += amount;
  const negative = balance.available < 0n && !mayGoNegative(context.state, uid, wallet, coin);
  if (negative || balance.frozen < 0n || balance.margin < 0n) {
    throw new Error(`ledger: ${uid} ${wallet} ${coin} would go negative`);
  }
  const billId = context.nextId();
  if (!context.recording) return billId;
  context.emit({
    type: 'BillPosted',
    billId,
    uid,
    wallet,
    coin,
    symbol,
    amount,
    fee,
    balanceAfter: walletTotal(balance),
    businessType,
    category,
    timeMs: context.nowMs,
  });
  return billId;
}

/** Moves funds between available and frozen (no bill: the balance itself is unchanged). */
export function freeze(context: Context, uid: string, wallet: string, coin: string, amount: bigint): void {
  const balance = balanceFor(context.state, uid, wallet, coin);
  const short = amount > balance.available && !mayGoNegative(context.state, uid, wallet, coin);
  if (short || -amount > balance.frozen) {
    throw new Error(`ledger: cannot freeze ${amount} of ${uid} ${wallet} ${coin}`);
  }
  balance.available -= amount;
  balance.frozen += amount;
}

/** Borrowing (margin): available and the debt grow together, so net holdings are unchanged; the bill's id. */
export function borrow(
  context: Context,
  uid: string,
  wallet: string,
  coin: string,
  amount: bigint,
  symbol = '',
  businessType: 'borrow' | 'manual_borrow' = 'borrow',
): string {
  const balance = balanceFor(context.state, uid, wallet, coin);
  balance.borrowed += amount;
  return post(context, { uid, wallet, coin, amount, businessType, symbol, category: 'MARGIN' });
}

/**
 * Writes the bill of a margin interest charge: the balance is unchanged (interest is a debt,
 * Balance.interest), so the amount is 0 and the fee is the interest charged.
 */
export function postInterest(
  context: Context,
  charge: {
    uid: string;
    wallet: string;
    coin: string;
    symbol?: string;
    amount: bigint;
    businessType: string;
  },
): void {
  const balance = balanceFor(context.state, charge.uid, charge.wallet, charge.coin);
  const billId = context.nextId();
  if (!context.recording) return;
  context.emit({
    type: 'BillPosted',
    billId,
    uid: charge.uid,
    wallet: charge.wallet,
    coin: charge.coin,
    symbol: charge.symbol ?? '',
    amount: 0n,
    fee: charge.amount,
    balanceAfter: walletTotal(balance),
    businessType: charge.businessType,
    category: 'MARGIN',
    timeMs: context.nowMs,
  });
}
