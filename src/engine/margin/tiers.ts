/**
 * Borrow limits and maintenance rates by tier. bourse serves one tier per coin (crossed) and
 * per symbol (isolated): the venue's tier tables are per VIP level and not published as
 * figures, so the limits below are bourse's choice (docs/trading.md, "Margin").
 *   crossed: leverage = the symbol's maxCrossedLeverage (3), maintenance 10 % (the venue's
 *            fixed cross rate);
 *   isolated: leverage = maxIsolatedLeverage (10), maintenance 5 %, initial rate 1 ÷ leverage.
 */
import { parseScaled } from '../../domain/decimal.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { MONEY_ONE, MONEY_SCALE } from '../../domain/money.ts';
import { nameTable } from '../../domain/name-table.ts';
import type { EngineState } from '../state.ts';

/** Most a user may owe of a coin (principal), per wallet: the tier-1 limit. */
export const BORROW_LIMITS: Readonly<Record<string, string>> = nameTable({
  USDT: '1000000',
  USDC: '1000000',
  BTC: '20',
  ETH: '300',
});
export const DEFAULT_BORROW_LIMIT = '100000';

export const CROSS_MAINTENANCE_RATE = '0.1';
export const ISOLATED_MAINTENANCE_RATE = '0.05';

export function borrowLimitText(coin: string): string {
  return BORROW_LIMITS[coin] ?? DEFAULT_BORROW_LIMIT;
}

export function borrowLimit(coin: string): bigint {
  return parseScaled(borrowLimitText(coin), MONEY_SCALE) ?? 0n;
}

/** The maintenance rate of a wallet, in money units of 1. */
export function maintenanceRate(isolated: boolean): bigint {
  return parseScaled(isolated ? ISOLATED_MAINTENANCE_RATE : CROSS_MAINTENANCE_RATE, MONEY_SCALE) ?? MONEY_ONE;
}

function leverageOf(text: string): bigint {
  const value = Number.parseInt(text, 10);
  return Number.isSafeInteger(value) && value >= 1 ? BigInt(value) : 1n;
}

/** Crossed leverage for a coin: the highest maxCrossedLeverage of a margin symbol trading it. */
export function crossedLeverage(state: EngineState, coin: string): bigint {
  let best = 0n;
  for (const instrument of state.instruments.values()) {
    if (instrument.category !== 'MARGIN') continue;
    if (instrument.baseCoin !== coin && instrument.quoteCoin !== coin) continue;
    const leverage = leverageOf(instrument.maxCrossedLeverage);
    if (leverage > best) best = leverage;
  }
  return best > 0n ? best : 1n;
}

export function isolatedLeverage(instrument: Instrument): bigint {
  return leverageOf(instrument.maxIsolatedLeverage);
}
