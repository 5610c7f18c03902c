/**
 * What the public lending and collateral endpoints read (docs/market-data.md, "Market
 * statistics"): margin borrowing rates per coin, and how much of a coin's value counts as
 * collateral. One seam to the engine's rules, as futures-hooks.ts is for futures.
 *
 * - Borrowing: the engine's daily rates (engine/margin/interest.ts); the annual rate is the
 *   daily × 365, exact. There is no platform-wide loan quota: what an account may borrow
 *   depends on its own equity (docs/trading.md, "Margin").
 * - Collateral: a unified account's coins count at their full USDT reference value (one tier,
 *   discount rate 1); coins in a classic union-margin futures wallet count at 95 %
 *   (engine/futures/union.ts).
 */
import { formatScaled, parseScaled } from '../domain/decimal.ts';
import { MONEY_SCALE } from '../domain/money.ts';
import { ownEntry } from '../domain/name-table.ts';
import { HAIRCUT_KEEP } from '../engine/futures/union.ts';
import { DAILY_INTEREST_RATES, DEFAULT_DAILY_RATE } from '../engine/margin/interest.ts';

const RATE_SCALE = 12;

export interface BorrowRates {
  daily: string;
  annual: string;
}

export function borrowRatesOf(coin: string): BorrowRates {
  // margin: the engine's daily rate for the coin, else its default.
  const daily = ownEntry(DAILY_INTEREST_RATES, coin) ?? DEFAULT_DAILY_RATE;
  const scaled = parseScaled(daily, RATE_SCALE) ?? 0n;
  return { daily, annual: formatScaled(scaled * 365n, RATE_SCALE) };
}

/** The share of a coin's value a unified account's collateral counts ("1" = all of it). */
export const UNIFIED_DISCOUNT_RATE = '1';

/** The share a classic account's union-margin collateral counts. */
export function unionDiscountRate(): string {
  // futures: the union-margin haircut (engine/futures/union.ts).
  return formatScaled(HAIRCUT_KEEP, MONEY_SCALE);
}
