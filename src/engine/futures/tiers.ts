/**
 * Position tiers: maintenance margin rate and maximum leverage by
 * position value in the margin coin's units. The BTCUSDT table is the venue's live one; every
 * other contract uses it too until the operator can configure tiers per instrument.
 */
import { parseScaled } from '../../domain/decimal.ts';
import { MONEY_SCALE } from '../../domain/money.ts';

export interface Tier {
  level: number;
  /** Upper bound of position value, whole units of the margin coin. */
  maxValue: number;
  maxLeverage: number;
  /** Maintenance margin rate, decimal string. */
  mmr: string;
}

export const DEFAULT_TIERS: readonly Tier[] = [
  { level: 1, maxValue: 200_000, maxLeverage: 150, mmr: '0.004' },
  { level: 2, maxValue: 1_000_000, maxLeverage: 100, mmr: '0.005' },
  { level: 3, maxValue: 5_000_000, maxLeverage: 75, mmr: '0.007' },
  { level: 4, maxValue: 15_000_000, maxLeverage: 50, mmr: '0.01' },
  { level: 5, maxValue: 50_000_000, maxLeverage: 25, mmr: '0.02' },
  { level: 6, maxValue: 100_000_000, maxLeverage: 20, mmr: '0.03' },
  { level: 7, maxValue: 150_000_000, maxLeverage: 10, mmr: '0.06' },
  { level: 8, maxValue: 300_000_000, maxLeverage: 5, mmr: '0.12' },
  { level: 9, maxValue: 500_000_000, maxLeverage: 4, mmr: '0.15' },
  { level: 10, maxValue: 700_000_000, maxLeverage: 3, mmr: '0.2' },
  { level: 11, maxValue: 900_000_000, maxLeverage: 2, mmr: '0.3' },
  { level: 12, maxValue: 1_200_000_000, maxLeverage: 1, mmr: '0.6' },
];

const ONE = 10n ** BigInt(MONEY_SCALE);

export function tierFor(valueMoney: bigint): Tier {
  for (const tier of DEFAULT_TIERS) if (valueMoney <= BigInt(tier.maxValue) * ONE) return tier;
  return DEFAULT_TIERS[DEFAULT_TIERS.length - 1] as Tier;
}

/** Maintenance margin rate as a money-scaled ratio (ONE = 100 %). */
export function mmrFor(valueMoney: bigint): bigint {
  return parseScaled(tierFor(valueMoney).mmr, MONEY_SCALE) ?? 0n;
}

/**
 * Highest leverage a position of `valueMoney` may use: its tier's, capped at the contract's
 * maximum (the same cap the tier endpoints apply to the rows they serve).
 */
export function maxLeverageFor(valueMoney: bigint, instrumentMaxLeverage: string): number {
  const cap = Number(instrumentMaxLeverage || '0') || Infinity;
  return Math.min(tierFor(valueMoney).maxLeverage, cap);
}

/** Upper bound of the tier below `tier`, money units; null for tier 1 (nothing below it). */
export function lowerTierCeiling(tier: Tier): bigint | null {
  const below = DEFAULT_TIERS[tier.level - 2];
  return below ? BigInt(below.maxValue) * ONE : null;
}
