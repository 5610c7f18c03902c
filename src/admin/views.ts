/**
 * What the operator API shows of accounts, API keys and balances (never a key's secret or
 * passphrase), and its paging: lists come in a stable order with `limit` (1–500, 100 by
 * default) and `cursor`, the last item's id of the page before; `cursor` in the answer is the
 * one to pass next, null on the last page.
 */
import type { Account, ApiKeyRecord } from '../domain/account.ts';
import { formatMoney } from '../domain/money.ts';
import type { Balance } from '../domain/wallet.ts';
import type { EngineState } from '../engine/state.ts';
import { optionalString, type Fields } from '../api/params.ts';
import { reject } from '../api/request.ts';
import { pageLimit } from '../api/routes/query-window.ts';

export const PAGE_DEFAULT = 100;
export const PAGE_MAX = 500;

export interface Page<T> {
  list: T[];
  cursor: string | null;
}

export function pageSize(query: Fields): number {
  return pageLimit(query, PAGE_DEFAULT, PAGE_MAX);
}

/** The `cursor` parameter, checked against `pattern` (ids are digits, API keys `[A-Za-z0-9_-]`). */
export function cursorOf(query: Fields, pattern: RegExp): string | undefined {
  const cursor = optionalString(query, 'cursor');
  if (cursor !== undefined && !pattern.test(cursor)) reject('PARAM_ERROR', 'cursor');
  return cursor;
}

/** `limit` items of `sorted` (already past the cursor), and the cursor of the next page. */
export function pageOf<T, V>(
  sorted: T[],
  limit: number,
  idOf: (item: T) => string,
  view: (item: T) => V,
): Page<V> {
  const list = sorted.slice(0, limit);
  const last = list.at(-1);
  return { list: list.map(view), cursor: sorted.length > limit && last ? idOf(last) : null };
}

/** Numeric ids (uids, order ids) as text: shorter is smaller, then by character. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

export function accountSummary(account: Account) {
  return {
    uid: account.uid,
    kind: account.kind,
    parentUid: account.parentUid,
    mode: account.mode,
    label: account.label,
    status: account.status ?? 'normal',
    createdTime: String(account.createdTimeMs),
  };
}

export function keyView(key: ApiKeyRecord) {
  return {
    apiKey: key.apiKey,
    uid: key.uid,
    label: key.label,
    permissions: key.permissions,
    ipList: key.ipList,
    status: key.frozen ? 'frozen' : 'normal',
    createdTime: String(key.createdTimeMs),
  };
}

export interface BalanceRow {
  wallet: string;
  coin: string;
  balance: Balance;
}

/** An account's balances, by wallet then coin. */
export function balancesOf(state: EngineState, uid: string): BalanceRow[] {
  const rows: BalanceRow[] = [];
  for (const [key, balance] of state.balances) {
    const [owner, wallet, coin] = key.split('|') as [string, string, string];
    if (owner === uid) rows.push({ wallet, coin, balance });
  }
  return rows.sort((a, b) =>
    a.wallet === b.wallet ? (a.coin < b.coin ? -1 : 1) : a.wallet < b.wallet ? -1 : 1,
  );
}

/** Every balance of an account as the operator API shows it (decimal strings). */
export function balanceRows(state: EngineState, uid: string) {
  return balancesOf(state, uid).map(({ wallet, coin, balance }) => ({
    wallet,
    coin,
    available: formatMoney(balance.available),
    frozen: formatMoney(balance.frozen),
    borrowed: formatMoney(balance.borrowed),
    interest: formatMoney(balance.interest),
    margin: formatMoney(balance.margin),
  }));
}

type Coins = Record<string, { available: string; frozen: string; borrowed: string }>;

/** The account, its balances per wallet and its keys (GET /admin/v1/accounts/{uid}). */
export function accountView(state: EngineState, uid: string) {
  const account = state.accounts.get(uid);
  if (!account) reject('ACCOUNT_NOT_FOUND', 'uid');
  const wallets = Object.create(null) as Record<string, Coins>;
  for (const { wallet, coin, balance } of balancesOf(state, uid)) {
    (wallets[wallet] ??= Object.create(null) as Coins)[coin] = {
      available: formatMoney(balance.available),
      frozen: formatMoney(balance.frozen),
      borrowed: formatMoney(balance.borrowed),
    };
  }
  const apiKeys = [...state.apiKeys.values()].filter((key) => key.uid === uid).map(keyView);
  return { ...account, createdTime: String(account.createdTimeMs), wallets, apiKeys };
}
