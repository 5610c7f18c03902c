/**
 * The insurance fund: an ordinary account (so its balance is in the conservation sum), one
 * balance per margin coin and wallet, public through the v3 risk-reserve endpoints. It takes
 * at the bankruptcy price what the book cannot absorb of a liquidation, keeps what remains of
 * a fully liquidated position's margin, covers losses beyond a trader's balance, and collects
 * funding rounding.
 */
import { INSURANCE_FUND_UID } from '../../domain/account.ts';
import type { EngineState } from '../state.ts';

export { INSURANCE_FUND_UID };

export function ensureInsuranceFund(state: EngineState, nowMs: number): string {
  if (!state.accounts.has(INSURANCE_FUND_UID)) {
    state.accounts.set(INSURANCE_FUND_UID, {
      uid: INSURANCE_FUND_UID,
      kind: 'main',
      parentUid: null,
      mode: 'classic',
      label: 'insurance-fund',
      createdTimeMs: nowMs,
    });
  }
  return INSURANCE_FUND_UID;
}

/** The fund's balance in `coin`, all wallets together (what risk-reserve reports). */
export function insuranceFundBalance(state: EngineState, coin: string): bigint {
  const prefix = `${INSURANCE_FUND_UID}|`;
  let total = 0n;
  for (const [key, balance] of state.balances) {
    if (key.startsWith(prefix) && key.endsWith(`|${coin}`)) total += balance.available + balance.frozen;
  }
  return total;
}

/**
 * How many of `lots` the fund can take at the bankruptcy price: all of them when it would not
 * lose at the mark (`lossPerLot` ≤ 0, the usual case: liquidation starts before bankruptcy);
 * otherwise as many as its balance covers. Nothing once the balance is spent: then ADL.
 */
export function fundCapacityLots(balance: bigint, lossPerLot: bigint, lots: number): number {
  if (lossPerLot <= 0n) return lots;
  if (balance <= 0n) return 0;
  const affordable = balance / lossPerLot;
  return affordable >= BigInt(lots) ? lots : Number(affordable);
}
