/**
 * Mark price (simplified from the venue's): the index plus the book's premium, clamped to
 * ±0.5 % of the index, and only when both sides of the book are quoted (one stray order
 * cannot move it further). Without an index: the last trade. Money units per base coin.
 */
import { divide } from '../../domain/decimal.ts';
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import { parseScaled } from '../../domain/decimal.ts';
import { MONEY_SCALE } from '../../domain/money.ts';
import { ticksToMoney } from '../instruments/scales.ts';
import type { EngineState } from '../state.ts';
import type { Books } from '../trading/books.ts';

/** Premium clamp: 0.5 % = 5 / 1000. */
const CLAMP_NUMERATOR = 5n;
const CLAMP_DENOMINATOR = 1000n;

export function indexPrice(state: EngineState, instrument: Instrument): bigint | null {
  const text = state.indexPrices.get(instrumentKey(instrument.category, instrument.symbol));
  return text ? parseScaled(text, MONEY_SCALE) : null;
}

export function markPrice(state: EngineState, books: Books, instrument: Instrument): bigint | null {
  const key = instrumentKey(instrument.category, instrument.symbol);
  const index = indexPrice(state, instrument);
  if (index === null) {
    const last = state.lastTradeTicks.get(key);
    return last === undefined ? null : ticksToMoney(instrument, last);
  }
  const book = books.peek(key);
  const bid = book?.bestPriceTicks('buy');
  const ask = book?.bestPriceTicks('sell');
  if (bid === undefined || ask === undefined) return index;
  const mid = divide(ticksToMoney(instrument, bid) + ticksToMoney(instrument, ask), 2n, 'down');
  const limit = divide(index * CLAMP_NUMERATOR, CLAMP_DENOMINATOR, 'down');
  const premium = mid - index;
  return index + (premium > limit ? limit : premium < -limit ? -limit : premium);
}
