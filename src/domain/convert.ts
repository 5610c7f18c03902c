/**
 * Convert pricing (docs/wallet.md): a quote's price is toCoin per fromCoin, from the two
 * coins' USDT index values less the spread, kept to CONVERT_PRICE_SCALE decimals (the venue
 * prints 16). Every rounding favours the house: the price and what the account receives
 * round down, what it pays for a fixed receipt rounds up. Money is in minor units (8 places).
 */
import { divide } from './decimal.ts';
import { MONEY_ONE } from './money.ts';

export const CONVERT_PRICE_SCALE = 16;
export const CONVERT_PRICE_ONE = 10n ** BigInt(CONVERT_PRICE_SCALE);

/**
 * toCoin per fromCoin: fromUsdt / toUsdt × (1 − spread), rounded down. Prices and the spread
 * are money-scaled (MONEY_ONE is 1; a spread of 0.001 is MONEY_ONE / 1000).
 */
export function convertPrice(fromUsdt: bigint, toUsdt: bigint, spread: bigint): bigint {
  return divide(fromUsdt * (MONEY_ONE - spread) * CONVERT_PRICE_ONE, toUsdt * MONEY_ONE, 'down');
}

/** What `fromAmount` buys at `price` (rounded down). */
export function convertedAmount(fromAmount: bigint, price: bigint): bigint {
  return divide(fromAmount * price, CONVERT_PRICE_ONE, 'down');
}

/** What receiving `toAmount` costs at `price` (rounded up). */
export function convertCost(toAmount: bigint, price: bigint): bigint {
  return divide(toAmount * CONVERT_PRICE_ONE, price, 'up');
}
