/**
 * The liquidity provider's ladder: `levels` bids and asks around the index price, the best
 * ones `spread` (a ratio) away from it and each next one a grid step further. The grid step
 * is `step` × index rounded down to 1, 2 or 5 × 10^k ticks, and prices sit on multiples of
 * it, so a small index move leaves every level where it is and a larger one shifts the
 * ladder by whole levels: re-quoting then cancels and places only the levels that moved.
 *
 * Size per level: `notional` (quote coin; USD for a coin-margined contract, whose lots are USD
 * contracts) at the level's price, in whole lots, never under the instrument's minimum
 * quantity or minimum amount. `capSide` trims one side to a number of lots, best level first
 * (the futures inventory limit, liquidity-futures.ts).
 */
import { isInverse } from '../domain/category.ts';
import { parseScaled } from '../domain/decimal.ts';
import type { Instrument } from '../domain/instrument.ts';
import { MONEY_ONE, MONEY_SCALE } from '../domain/money.ts';
import { lotsToMoney, quantityToLots, quoteValue, ticksToMoney } from '../engine/instruments/scales.ts';

export interface LadderSpec {
  levels: number;
  spread: number;
  step: number;
  notional: number;
}

export interface Quote {
  side: 'buy' | 'sell';
  priceTicks: number;
  lots: number;
}

/** The largest of 1, 2, 5 × 10^k that is ≤ value (at least 1). */
export function niceStep(value: number): number {
  if (!(value >= 1)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const factor of [5, 2, 1]) if (factor * power <= value) return factor * power;
  return power;
}

/** Quote value of one lot at `priceTicks`: price × lot size, or a USD contract's face value. */
export function lotNotional(instrument: Instrument, priceTicks: number): bigint {
  return isInverse(instrument.category) ? lotsToMoney(instrument, 1) : quoteValue(instrument, priceTicks, 1);
}

/** A quote value in money units (cents exact; `value` is a configured figure). */
export function notionalMoney(value: number): bigint {
  return BigInt(Math.round(value * 100)) * (MONEY_ONE / 100n);
}

/** The fewest lots an order at `priceTicks` may have: minimum quantity and minimum amount. */
export function minimumLots(instrument: Instrument, priceTicks: number): number {
  const minQuantity = instrument.minOrderQty ? quantityToLots(instrument, instrument.minOrderQty) : 1;
  let lots = typeof minQuantity === 'number' ? Math.max(1, minQuantity) : 1;
  const minAmount = (instrument.minOrderAmount && parseScaled(instrument.minOrderAmount, MONEY_SCALE)) || 0n;
  const oneLot = lotNotional(instrument, priceTicks);
  if (oneLot > 0n && BigInt(lots) * oneLot < minAmount) lots = Number((minAmount + oneLot - 1n) / oneLot);
  return lots;
}

function lotsFor(instrument: Instrument, priceTicks: number, notional: number): number {
  const oneLot = lotNotional(instrument, priceTicks);
  const lots = oneLot > 0n ? Number(notionalMoney(notional) / oneLot) : 0;
  return Math.max(lots, minimumLots(instrument, priceTicks));
}

/**
 * Trims `side` of a ladder to `capacityLots` in all, best level first: the level that does
 * not fit whole keeps what remains (if that is an order the instrument accepts), the levels
 * beyond it go.
 */
export function capSide(
  instrument: Instrument,
  quotes: Quote[],
  side: Quote['side'],
  capacityLots: number,
): Quote[] {
  let room = Math.max(0, capacityLots);
  const kept: Quote[] = [];
  for (const quote of quotes) {
    if (quote.side !== side) {
      kept.push(quote);
      continue;
    }
    const lots = Math.min(quote.lots, room);
    if (lots <= 0 || lots < minimumLots(instrument, quote.priceTicks)) {
      room = 0;
      continue;
    }
    room -= lots;
    kept.push(lots === quote.lots ? quote : { ...quote, lots });
  }
  return kept;
}

export function targetLadder(instrument: Instrument, indexPrice: number, spec: LadderSpec): Quote[] {
  const tick = Number(ticksToMoney(instrument, 1)) / Number(MONEY_ONE);
  if (!(indexPrice > 0) || !(tick > 0)) return [];
  const grid = niceStep((indexPrice * spec.step) / tick);
  const indexTicks = indexPrice / tick;
  const bestBid = Math.floor((indexTicks * (1 - spec.spread)) / grid) * grid;
  let bestAsk = Math.ceil((indexTicks * (1 + spec.spread)) / grid) * grid;
  if (bestAsk <= bestBid) bestAsk = bestBid + grid;
  const quotes: Quote[] = [];
  for (let level = 0; level < spec.levels; level += 1) {
    const bid = bestBid - level * grid;
    if (bid > 0) quotes.push({ side: 'buy', priceTicks: bid, lots: lotsFor(instrument, bid, spec.notional) });
    const ask = bestAsk + level * grid;
    quotes.push({ side: 'sell', priceTicks: ask, lots: lotsFor(instrument, ask, spec.notional) });
  }
  return quotes;
}
