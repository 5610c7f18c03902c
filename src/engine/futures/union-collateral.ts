/**
 * Union (multi-asset) collateral: which accounts are in union mode and what the non-USDT
 * coins of their USDT-M wallet count for as margin (union.ts has the mode switch and its
 * checks). Below futures risk, which counts this collateral in the cross equity.
 */
import { divide } from '../../domain/decimal.ts';
import { MONEY_ONE } from '../../domain/money.ts';
import type { EngineState } from '../state.ts';
import { usdtPriceOf } from '../trading/reference-price.ts';

export const UNION_WALLET = 'usdt_futures';
/** Collateral counts at 95 % of its USDT value. */
export const HAIRCUT_KEEP = (MONEY_ONE * 95n) / 100n;

export function isUnion(state: EngineState, uid: string): boolean {
  return state.assetModes.get(uid) === 'union';
}

/** USDT value (after the haircut) of the non-USDT coins in a union account's USDT-M wallet. */
export function unionCollateral(state: EngineState, uid: string, wallet: string): bigint {
  if (wallet !== UNION_WALLET || !isUnion(state, uid)) return 0n;
  const prefix = `${uid}|${wallet}|`;
  let total = 0n;
  for (const [key, balance] of state.balances) {
    if (!key.startsWith(prefix)) continue;
    const coin = key.slice(prefix.length);
    if (coin === 'USDT') continue;
    const price = usdtPriceOf(state, coin) ?? 0n;
    total += divide(
      (balance.available + balance.frozen) * price * HAIRCUT_KEEP,
      MONEY_ONE * MONEY_ONE,
      'down',
    );
  }
  return total;
}
