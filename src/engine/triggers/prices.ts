/**
 * The prices plans watch: `mark_price` is the futures mark price (engine/futures/mark.ts: the
 * index plus the book's clamped premium), `fill_price` the last trade. Money units per base
 * coin; null while the source has no price yet (no index and no trade, or no trade at all).
 */
import { instrumentKey, type Instrument } from '../../domain/instrument.ts';
import type { TriggerType } from '../../domain/plan.ts';
import { markPrice } from '../futures/mark.ts';
import { ticksToMoney } from '../instruments/scales.ts';
import type { EngineState } from '../state.ts';
import type { Books } from '../trading/books.ts';

export function currentPrice(
  state: EngineState,
  books: Books,
  instrument: Instrument,
  triggerType: TriggerType,
): bigint | null {
  if (triggerType === 'mark_price') return markPrice(state, books, instrument);
  const last = state.lastTradeTicks.get(instrumentKey(instrument.category, instrument.symbol));
  return last === undefined ? null : ticksToMoney(instrument, last);
}

/** The price a new plan is compared with: its own source, else the mark price (no trade yet). */
export function referencePriceFor(
  state: EngineState,
  books: Books,
  instrument: Instrument,
  triggerType: TriggerType,
): bigint | null {
  return currentPrice(state, books, instrument, triggerType) ?? markPrice(state, books, instrument);
}
