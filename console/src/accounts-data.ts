/**
 * Accounts as the operator API shows them, and their equity in USDT: every balance
 * (available + frozen + margin − borrowed − interest) valued at the spot last price of its
 * coin against USDT (USDT and USDC at 1), plus the unrealised PnL of futures positions. An
 * approximation for display; the exact figures are the balances' strings.
 */
import { operator, publicGet } from './api.ts';
import { approx } from './format.ts';

export interface AccountSummary {
  uid: string;
  kind: string;
  parentUid: string | null;
  mode: string;
  label: string;
  status?: string;
  createdTime: string;
}

export interface BalanceRow {
  wallet: string;
  coin: string;
  available: string;
  frozen: string;
  borrowed: string;
  interest?: string;
  margin?: string;
}

export interface PositionRow {
  category: string;
  symbol: string;
  marginCoin: string;
  posSide: string;
  marginMode: string;
  total: string;
  avgPrice: string;
  markPrice: string;
  liquidationPrice: string;
  unrealisedPnl: string;
  leverage: string;
  positionBalance: string;
  [field: string]: unknown;
}

export type UsdPrices = Map<string, number>;

/** Coin → USDT price from the spot tickers (approx). */
export async function loadUsdPrices(): Promise<UsdPrices> {
  const tickers = await publicGet<{ symbol: string; lastPr: string }[]>('/api/v2/spot/market/tickers');
  const prices: UsdPrices = new Map([
    ['USDT', 1],
    ['USDC', 1],
  ]);
  for (const ticker of tickers) {
    if (ticker.symbol.endsWith('USDT')) prices.set(ticker.symbol.slice(0, -4), approx(ticker.lastPr));
  }
  return prices;
}

export function equityOf(balances: BalanceRow[], positions: PositionRow[], prices: UsdPrices): number {
  let total = 0;
  for (const row of balances) {
    const amount =
      approx(row.available) +
      approx(row.frozen) +
      approx(row.margin) -
      approx(row.borrowed) -
      approx(row.interest);
    total += amount * (prices.get(row.coin) ?? 0);
  }
  for (const position of positions)
    total += approx(position.unrealisedPnl) * (prices.get(position.marginCoin) ?? 0);
  return total;
}

export async function loadEquity(uid: string, prices: UsdPrices): Promise<number> {
  const [balances, positions] = await Promise.all([
    operator<BalanceRow[]>('GET', `/accounts/${uid}/balances`),
    operator<PositionRow[]>('GET', `/accounts/${uid}/positions`),
  ]);
  return equityOf(balances, positions, prices);
}

export const usd = (value: number | undefined) =>
  value === undefined
    ? ''
    : value.toLocaleString('en-US', { maximumFractionDigits: 2, minimumFractionDigits: 2 });
