/**
 * Margin interest: principal × daily rate ÷ 24 per hour, a started
 * hour counting whole; one hour is charged at borrowing and one at every full hour of the
 * engine clock after it. Interest is a debt (Balance.interest) and, until repaid, the
 * lender's income (state.interestAccrued), so conservation holds throughout. Every charge is
 * written as a bill of amount 0 whose fee is the interest (`first_interest` at borrowing,
 * `interest` on the hour): interest-history reads them.
 */
import { divide, parseScaled } from '../../domain/decimal.ts';
import type { Balance } from '../../domain/wallet.ts';
import { nameTable } from '../../domain/name-table.ts';
import type { Context } from '../context.ts';
import { postInterest } from '../accounts/ledger.ts';

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

export function dailyRateText(coin: string): string {
  return DAILY_INTEREST_RATES[coin] ?? DEFAULT_DAILY_RATE;
}

export function hourlyInterest(coin: string, principal: bigint): bigint {
  const daily = parseScaled(dailyRateText(coin), RATE_SCALE) ?? 0n;
  return divide(principal * daily, 10n ** BigInt(RATE_SCALE) * 24n, 'up');
}

/** Charges `hours` of interest on `principal` to the balance's debt, and writes its bill. */
export function chargeInterest(
  context: Context,
  at: { uid: string; wallet: string; coin: string; symbol?: string },
  balance: Balance,
  principal: bigint,
  hours: number,
  businessType: 'first_interest' | 'interest' = 'interest',
): void {
  if (principal <= 0n || hours <= 0) return;
  const amount = hourlyInterest(at.coin, principal) * BigInt(hours);
  balance.interest += amount;
  const { state } = context;
  state.interestAccrued.set(at.coin, (state.interestAccrued.get(at.coin) ?? 0n) + amount);
  postInterest(context, { ...at, amount, businessType });
}

/** Charges every debt for the full hours between the last charge and now. */
export function accrueHourlyInterest(context: Context): void {
  const { state, nowMs } = context;
  const currentHour = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  if (state.interestChargedToMs === 0) {
    state.interestChargedToMs = currentHour;
    return;
  }
  const hours = (currentHour - state.interestChargedToMs) / HOUR_MS;
  if (hours <= 0) return;
  state.interestChargedToMs = currentHour;
  for (const [key, balance] of [...state.balances].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (balance.borrowed <= 0n) continue;
    const [uid = '', wallet = '', coin = ''] = key.split('|');
    chargeInterest(context, { uid, wallet, coin }, balance, balance.borrowed, hours);
  }
}
