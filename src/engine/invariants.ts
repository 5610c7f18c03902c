/**
 * Ledger conservation (DESIGN.md §7): for every coin, what all accounts hold (available +
 * frozen + isolated margin − borrowed − unpaid interest), plus fees collected and interest
 * accrued to the lender, minus direction × cost basis of every open futures position, equals what entered through deposits minus what left through withdrawals.
 * Returns the coins that do not balance (empty when the invariant holds).
 *
 * Every wallet counts: the classic ones, a unified account's unified and funding wallets, and
 * the house accounts' (the liquidity provider's, the convert house's), which are funded by
 * Deposit commands like any account (test/properties/wallet.property.test.ts).
 */
import { isInverse } from '../domain/category.ts';
import type { EngineState } from './state.ts';

export interface Imbalance {
  coin: string;
  held: bigint;
  external: bigint;
}

export function heldByCoin(state: EngineState): Map<string, bigint> {
  const held = new Map<string, bigint>();
  for (const [key, balance] of state.balances) {
    const coin = key.slice(key.lastIndexOf('|') + 1);
    const net = balance.available + balance.frozen + balance.margin - balance.borrowed - balance.interest;
    held.set(coin, (held.get(coin) ?? 0n) + net);
  }
  // Open positions' cost basis: realised PnL is closeValue − entryValue, so cash plus
  // −direction × entryValue over all positions is what the coins are worth (see position.ts).
  for (const position of state.positions.values()) {
    // Inverse contracts gain as the coin value falls: their basis counts the other way round.
    const long = (position.holdSide === 'long') !== isInverse(position.category);
    const basis = long ? -position.entryValue : position.entryValue;
    held.set(position.marginCoin, (held.get(position.marginCoin) ?? 0n) + basis);
  }
  for (const source of [state.feesCollected, state.interestAccrued]) {
    for (const [coin, amount] of source) held.set(coin, (held.get(coin) ?? 0n) + amount);
  }
  return held;
}

export function conservationImbalances(state: EngineState): Imbalance[] {
  const held = heldByCoin(state);
  const coins = new Set([...held.keys(), ...state.externalFlows.keys()]);
  const imbalances: Imbalance[] = [];
  for (const coin of [...coins].sort()) {
    const heldAmount = held.get(coin) ?? 0n;
    const external = state.externalFlows.get(coin) ?? 0n;
    if (heldAmount !== external) imbalances.push({ coin, held: heldAmount, external });
  }
  return imbalances;
}
