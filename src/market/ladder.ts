/**
 * The liquidity provider's ladder: `levels` bids and asks around the index price, the best
 * ones `spread` (a ratio) away from it and each next one a grid step further. The grid step
 * is `step` × index rounded down to 1, 2 or 5 × 10^k ticks, and prices sit on multiples of
 * it, so a small index move leaves every level where it is and a larger one shifts the
 * ladder by whole levels: re-quoting then cancels and places only the levels that moved.
 *
 * Size per level: `notional` (quote coin) at the level's price, in whole lots, never under
 * the instrument's minimum quantity or minimum amount.
 */
import { parseScaled } from '../domain/decimal.ts';
import type { Instrument } from '../domain/instrument.ts';
import { MONEY_ONE, MONEY_SCALE } from '../domain/money.ts';
import { quantityToLots, quoteValue, ticksToMoney } from '../engine/instruments/scales.ts';

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

function lotsFor(instrument: Instrument, priceTicks: number, notional: number): number {
  const notionalMoney = BigInt(Math.round(notional * 100)) * (MONEY_ONE / 100n);
  const oneLot = quoteValue(instrument, priceTicks, 1);
  let lots = oneLot > 0n ? Number(notionalMoney / oneLot) : 0;
  const minLots = instrument.minOrderQty ? quantityToLots(instrument, instrument.minOrderQty) : 1;
  if (typeof minLots === 'number' && lots < minLots) lots = minLots;
  const minAmount = (instrument.minOrderAmount && parseScaled(instrument.minOrderAmount, MONEY_SCALE)) || 0n;
  if (oneLot > 0n && quoteValue(instrument, priceTicks, lots) < minAmount) {
    lots = Number((minAmount + oneLot - 1n) / oneLot);
  }
  return Math.max(1, lots);
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
