/**
 * Futures positions and the per-account futures settings.
 *
 * A position is one side (`long` or `short`) of one symbol for one account. In hedge mode an
 * account may hold both sides; in one-way mode at most one (reported as `net` on v2).
 * `entryValue` is the exact sum of what was paid to open (quote money for linear contracts),
 * reduced pro rata on closes; realised PnL is always closeValue − removed entryValue, so the
 * sum of all cash plus open positions' cost basis is conserved to the last unit.
 */
import type { Category } from './category.ts';

export type HoldSide = 'long' | 'short';
export type MarginMode = 'crossed' | 'isolated';
export type PositionMode = 'one_way_mode' | 'hedge_mode';

export const MARGIN_MODES: readonly MarginMode[] = ['crossed', 'isolated'];
export const POSITION_MODES: readonly PositionMode[] = ['one_way_mode', 'hedge_mode'];
export const HOLD_SIDES: readonly HoldSide[] = ['long', 'short'];

export interface Position {
  positionId: string;
  uid: string;
  category: Category;
  symbol: string;
  marginCoin: string;
  wallet: string;
  holdSide: HoldSide;
  marginMode: MarginMode;
  leverage: number;
  sizeLots: number;
  /** Lots held by open close orders (hedge close / one-way reduce-only). */
  lockedLots: number;
  /** Σ value paid to open the current size, money units of the margin coin. */
  entryValue: bigint;
  /** Isolated margin held by this position (0 when crossed). */
  isolatedMargin: bigint;
  realisedPnl: bigint;
  openFeeTotal: bigint;
  closeFeeTotal: bigint;
  /** Funding paid (negative) or received (positive) over the position's life. */
  fundingTotal: bigint;
  /** Largest size reached and total closed, for position history. */
  openedLotsTotal: number;
  openedValueTotal: bigint;
  closedLotsTotal: number;
  closedValueTotal: bigint;
  createdTimeMs: number;
  updatedTimeMs: number;
}

/** An account's settings for one symbol: margin mode and leverage (per side when isolated). */
export interface SymbolSettings {
  marginMode: MarginMode;
  crossLeverage: number;
  longLeverage: number;
  shortLeverage: number;
}

export const DEFAULT_LEVERAGE = 20;

export function positionKey(uid: string, category: string, symbol: string, holdSide: HoldSide): string {
  return `${uid}|${category}|${symbol}|${holdSide}`;
}

export function settingsKey(uid: string, category: string, symbol: string): string {
  return `${uid}|${category}|${symbol}`;
}

export function directionOf(holdSide: HoldSide): 1n | -1n {
  return holdSide === 'long' ? 1n : -1n;
}
