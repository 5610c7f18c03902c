/**
 * Margin interest: principal × daily rate ÷ 24 per hour, a started
 * hour counting whole; one hour is charged at borrowing and one at every full hour of the
 * engine clock after it. Interest is a debt (Balance.interest) and, until repaid, the
 * lender's income (state.interestAccrued), so conservation holds throughout.
 */
import { divide, parseScaled } from '../../domain/decimal.ts';
import type { Balance } from '../../domain/wallet.ts';
import type { EngineState } from '../state.ts';
import { nameTable } from '../../domain/name-table.ts';

export const HOUR_MS = 60 * 60 * 1000;

/** Daily rates per coin (the venue's published examples); others use DEFAULT_DAILY_RATE. */
export const DAILY_INTEREST_RATES: Readonly<Record<string, string>> = nameTable({
  USDT: '0.000126279',
  USDC: '0.000126279',
  BTC: '0.00003',
  ETH: '0.00005',
});
export const DEFAULT_DAILY_RATE = '0.0001';

/** Rates carry more places than money (the venue quotes 0.000126279/day). */
const RATE_SCALE = 12;

export function hourlyInterest(coin: string, principal: bigint): bigint {
  const daily = parseScaled(DAILY_INTEREST_RATES[coin] ?? DEFAULT_DAILY_RATE, RATE_SCALE) ?? 0n;
  return divide(principal * daily, 10n ** BigInt(RATE_SCALE) * 24n, 'up');
}

/** Charges `hours` of interest on `principal` to the balance's debt. */
export function chargeInterest(
  state: EngineState,
  coin: string,
  balance: Balance,
  principal: bigint,
  hours: number,
): void {
  if (principal <= 0n || hours <= 0) return;
  const amount = hourlyInterest(coin, principal) * BigInt(hours);
  balance.interest += amount;
  state.interestAccrued.set(coin, (state.interestAccrued.get(coin) ?? 0n) + amount);
}

/** Charges every debt for the full hours between the last charge and now. */
export function accrueHourlyInterest(state: EngineState, nowMs: number): void {
  const currentHour = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  if (state.interestChargedToMs === 0) {
    state.interestChargedToMs = currentHour;
    return;
  }
  const hours = (currentHour - state.interestChargedToMs) / HOUR_MS;
  if (hours <= 0) return;
  state.interestChargedToMs = currentHour;
  for (const [key, balance] of state.balances) {
    if (balance.borrowed > 0n)
      chargeInterest(state, key.slice(key.lastIndexOf('|') + 1), balance, balance.borrowed, hours);
  }
}
