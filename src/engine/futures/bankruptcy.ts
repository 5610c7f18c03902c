/**
 * Bankruptcy price: where a position has lost all the equity that stands behind it, the other
 * positions held at the mark. Isolated, that equity is the position's margin + uPnL; crossed,
 * the wallet's cross equity. It is the liquidation-price formula with the maintenance rate and
 * the fee at zero (venue-mechanics §3.2), solved from the mark:
 *   linear:  P = M − d·equity ÷ S              (S the size in base coin)
 *   inverse: Q ÷ P = Q ÷ M + d·equity          (Q the USD size; the coin value moves as 1/P)
 * Liquidation orders and the insurance fund and ADL counterparties trade there.
 */
import { divide } from '../../domain/decimal.ts';
import { isInverse } from '../../domain/category.ts';
import type { Instrument } from '../../domain/instrument.ts';
import { MONEY_ONE } from '../../domain/money.ts';
import { directionOf, type Position } from '../../domain/position.ts';
import { lotsToMoney, scalesOf } from '../instruments/scales.ts';

/** Money per base coin; null when no price makes the position bankrupt (an inverse short). */
export function bankruptcyPrice(
  instrument: Instrument,
  position: Position,
  equity: bigint,
  markMoney: bigint,
): bigint | null {
  const size = lotsToMoney(instrument, position.sizeLots);
  if (size <= 0n) return markMoney;
  const d = directionOf(position.holdSide);
  if (!isInverse(instrument.category)) {
    const price = markMoney - d * divide(equity * MONEY_ONE, size, 'down');
    return price > 0n ? price : 0n;
  }
  const coinValue = divide(size * MONEY_ONE, markMoney, 'down');
  const below = coinValue + d * equity;
  return below > 0n ? divide(size * MONEY_ONE, below, 'down') : null;
}

/**
 * The limit price of a liquidation order in ticks: a sell (long) at the bankruptcy price
 * rounded up, a buy (short) rounded down, so no fill is worse than bankruptcy; at least one
 * tick. No bankruptcy price (an inverse short that cannot go bankrupt): ten times the mark.
 */
export function liquidationTicks(
  instrument: Instrument,
  side: 'buy' | 'sell',
  priceMoney: bigint | null,
  markMoney: bigint,
): number {
  const perTick = scalesOf(instrument).moneyPerTick;
  const price = priceMoney ?? markMoney * 10n;
  const ticks = side === 'sell' ? divide(price, perTick, 'up') : price / perTick;
  return Number(ticks > 0n ? ticks : 1n);
}
