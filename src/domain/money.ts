/**
 * Money: every balance, fee, notional and PnL is a bigint in a coin's minor unit.
 *
 * All coins share one scale (8 decimals, the venue's balance precision). Keeping it one
 * constant means a transfer between coins never needs a per-coin lookup; a coin needing
 * more places would change MONEY_SCALE here and nowhere else.
 */
import { formatScaled, parseScaled } from './decimal.ts';

export const MONEY_SCALE = 8;
export const MONEY_ONE = 10n ** BigInt(MONEY_SCALE);

export type Money = bigint;

export function parseMoney(text: string): Money | null {
  return parseScaled(text, MONEY_SCALE);
}

export function formatMoney(value: Money): string {
  return formatScaled(value, MONEY_SCALE);
}
