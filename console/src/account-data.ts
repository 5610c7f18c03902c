/**
 * What one account's page loads from the operator API, every 2 s, and the shapes of its rows.
 * A list the server does not serve (an older server: 404) reads as 'unavailable'.
 */
import { allPages, ApiError, operator } from './api.ts';
import { loadUsdPrices, type AccountSummary, type BalanceRow, type PositionRow } from './accounts-data.ts';
import type { AccountRisk } from './views/account-risk.tsx';

export interface KeyRow {
  apiKey: string;
  label: string;
  permissions: string[];
  ipList: string[];
  status?: string;
}

export interface AccountView extends AccountSummary {
  apiKeys: KeyRow[];
  risk?: AccountRisk;
  wallets?: Record<string, Record<string, { available: string; frozen: string; borrowed: string }>>;
}

/** The balances of GET /admin/v1/accounts/{uid}, for a server without the balances list. */
export function walletRows(account: AccountView): BalanceRow[] {
  return Object.entries(account.wallets ?? {}).flatMap(([wallet, coins]) =>
    Object.entries(coins).map(([coin, balance]) => ({ wallet, coin, ...balance })),
  );
}

export interface OrderRow {
  orderId: string;
  category: string;
  symbol: string;
  side: string;
  orderType: string;
  price: string;
  qty: string;
  cumExecQty: string;
  avgPrice: string;
  status: string;
  createdTime: string;
}

export interface FillRow {
  execId: string;
  orderId: string;
  category: string;
  symbol: string;
  side: string;
  execPrice: string;
  execQty: string;
  execValue?: string;
  fee?: string;
  feeCoin?: string;
  createdTime: string;
  [field: string]: unknown;
}

/** A list the server may not serve yet: 404 (40404) reads as "not on this server". */
export async function optional<T>(load: () => Promise<T>): Promise<T | 'unavailable'> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return 'unavailable';
    throw error;
  }
}

export interface BillRow {
  billId: string;
  wallet: string;
  coin: string;
  symbol: string;
  businessType: string;
  amount: string;
  fee: string;
  balanceAfter: string;
  createdTime: string;
}

export interface PlanRow {
  planId: string;
  category: string;
  symbol: string;
  planType: string;
  triggerType: string;
  triggerPrice: string;
  orderType: string;
  executePrice: string;
  size: string;
  side: string;
  status: string;
  createdTime: string;
}

export interface FundingRecord {
  id: string;
  coin: string;
  amount: string;
  type: string;
  subType: string;
  status: string;
  ts: string;
}

export async function loadAccount(uid: string) {
  const [
    account,
    balances,
    positions,
    openOrders,
    orders,
    fills,
    subAccounts,
    prices,
    bills,
    plans,
    funding,
  ] = await Promise.all([
    operator<AccountView>('GET', `/accounts/${uid}`),
    optional(() => operator<BalanceRow[]>('GET', `/accounts/${uid}/balances`)),
    optional(() => operator<PositionRow[]>('GET', `/accounts/${uid}/positions`)),
    optional(() => operator<{ list: OrderRow[] }>('GET', `/accounts/${uid}/orders?status=open&limit=100`)),
    optional(() => operator<{ list: OrderRow[] }>('GET', `/accounts/${uid}/orders?status=closed&limit=50`)),
    optional(() => operator<{ list: FillRow[] }>('GET', `/accounts/${uid}/fills?limit=50`)),
    optional(() => allPages<AccountSummary>('/accounts', { parentUid: uid }, 1000)),
    loadUsdPrices(),
    optional(() => operator<{ list: BillRow[] }>('GET', `/accounts/${uid}/bills?limit=50`)),
    optional(() =>
      operator<{ list: PlanRow[] }>('GET', `/accounts/${uid}/plan-orders?status=live&limit=100`),
    ),
    optional(() => operator<FundingRecord[]>('GET', `/accounts/${uid}/funding`)),
  ]);
  return {
    account,
    balances,
    positions,
    openOrders,
    orders,
    fills,
    subAccounts,
    prices,
    bills,
    plans,
    funding,
  };
}

export const listOf = <T>(value: { list: T[] } | 'unavailable' | undefined) =>
  value === 'unavailable' || value === undefined ? undefined : value.list;

/** A route's rows, or undefined when the server does not serve it. */
export const servedRows = <T>(value: T[] | 'unavailable' | undefined) =>
  value === 'unavailable' ? undefined : value;
