/**
 * Margin wallet valuation in USDT: total assets, liabilities
 * (borrowed principal + unpaid interest), and the risk ratio
 *   risk = liabilities × MMR ÷ (assets − liabilities), MMR = 10 % for cross margin.
 * Coins without a price are valued at zero (conservative for the borrower's limit).
 */
import { divide } from '../../domain/decimal.ts';
import { MONEY_ONE } from '../../domain/money.ts';
import type { EngineState } from '../state.ts';
import { usdtPriceOf } from '../trading/reference-price.ts';

export const CROSS_MAINTENANCE_RATIO = MONEY_ONE / 10n;

export interface WalletValue {
  assetsUsdt: bigint;
  liabilitiesUsdt: bigint;
}

export function walletValue(state: EngineState, uid: string, wallet: string): WalletValue {
  const prefix = `${uid}|${wallet}|`;
  let assetsUsdt = 0n;
  let liabilitiesUsdt = 0n;
  for (const [key, balance] of state.balances) {
    if (!key.startsWith(prefix)) continue;
    const price = usdtPriceOf(state, key.slice(prefix.length)) ?? 0n;
    assetsUsdt += divide((balance.available + balance.frozen) * price, MONEY_ONE, 'down');
    liabilitiesUsdt += divide((balance.borrowed + balance.interest) * price, MONEY_ONE, 'up');
  }
  return { assetsUsdt, liabilitiesUsdt };
}

/**
 * Risk ratio in money units of 1 (MONEY_ONE = 100 %); null when there is no debt.
 * `maintenance`: 10 % crossed, the isolated tier's rate for an isolated wallet.
 */
export function riskRatio(value: WalletValue, maintenance = CROSS_MAINTENANCE_RATIO): bigint | null {
  if (value.liabilitiesUsdt === 0n) return null;
  const net = value.assetsUsdt - value.liabilitiesUsdt;
  if (net <= 0n) return 100n * MONEY_ONE;
  return divide(value.liabilitiesUsdt * maintenance, net, 'up');
}

/** How much more USDT value may be borrowed at `leverage`: equity × (leverage − 1) − debt. */
export function borrowableUsdt(value: WalletValue, leverage: bigint): bigint {
  const equity = value.assetsUsdt - value.liabilitiesUsdt;
  if (equity <= 0n) return 0n;
  const room = equity * (leverage - 1n) - value.liabilitiesUsdt;
  return room > 0n ? room : 0n;
}
