/** Product lines. v3 calls them `category`, v2 futures endpoints `productType`. */
export const CATEGORIES = [
  'SPOT',
  'MARGIN',
  'USDT-FUTURES',
  'COIN-FUTURES',
  'USDC-FUTURES',
  'SUSDT-FUTURES',
  'SCOIN-FUTURES',
  'SUSDC-FUTURES',
] as const;
export type Category = (typeof CATEGORIES)[number];

/** The categories v3 endpoints accept; the demo product types are v2-only. */
export const V3_CATEGORIES: readonly Category[] = [
  'SPOT',
  'MARGIN',
  'USDT-FUTURES',
  'COIN-FUTURES',
  'USDC-FUTURES',
];

export const FUTURES_CATEGORIES: readonly Category[] = [
  'USDT-FUTURES',
  'COIN-FUTURES',
  'USDC-FUTURES',
  'SUSDT-FUTURES',
  'SCOIN-FUTURES',
  'SUSDC-FUTURES',
];

export function isFutures(category: Category): boolean {
  return category !== 'SPOT' && category !== 'MARGIN';
}

/** Coin-margined (inverse) lines: quantity in USD contracts, margin and PnL in the base coin. */
export function isInverse(category: Category): boolean {
  return category === 'COIN-FUTURES' || category === 'SCOIN-FUTURES';
}

/** Accepts any case ("usdt-futures" as the venue's own examples write it). */
export function parseCategory(text: string, allowed: readonly Category[] = CATEGORIES): Category | null {
  const upper = text.toUpperCase();
  return (allowed as readonly string[]).includes(upper) ? (upper as Category) : null;
}
